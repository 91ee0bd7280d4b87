/// One setting that differs between two ``Settings``: what a reloaded configuration changed.
public struct SettingChange: Sendable, Equatable, CustomStringConvertible {
    /// Which setting, named by its key in the configuration file.
    public enum Key: String, Sendable, CaseIterable {
        case root, mirror
        case stateDirectory = "state_dir"
        case runtimeDirectory = "runtime_dir"
        case containers = "container"
        case logLevel = "log_level"
        case settle = "settle_ms"
        case ignore
        case deviceName = "device_name"
        case syncPoll = "sync.poll_interval_ms"
        case syncFullPass = "sync.full_pass_interval_s"
        case deletionGuardPercent = "sync.deletion_guard_percent"
        case deletionGuardMinimum = "sync.deletion_guard_minimum"
        case historyRetention = "sync.history_retention_days"
    }

    public var key: Key
    /// The value before, as a person reads it ("none" when unset).
    public var old: String
    /// The value after.
    public var new: String

    public init(key: Key, old: String, new: String) {
        self.key = key
        self.old = old
        self.new = new
    }

    /// `log_level (info → debug)`.
    public var description: String { "\(key.rawValue) (\(old) → \(new))" }
}

extension Settings {
    /// Every setting that differs in `other`, in the order of ``SettingChange/Key``. The
    /// configuration file's own path is not a setting: it cannot change without a restart.
    public func changes(to other: Settings) -> [SettingChange] {
        SettingChange.Key.allCases.compactMap { key in
            let (old, new) = (display(key), other.display(key))
            return old == new ? nil : SettingChange(key: key, old: old, new: new)
        }
    }

    private func display(_ key: SettingChange.Key) -> String {
        switch key {
        case .root: root
        case .mirror: mirror ?? "none"
        case .stateDirectory: stateDirectory
        case .runtimeDirectory: runtimeDirectory
        case .containers: containerIDs.map(\.identifier).joined(separator: ", ")
        case .logLevel: logLevel
        case .settle: "\(settleMilliseconds) ms"
        case .ignore: ignorePatterns.isEmpty ? "none" : ignorePatterns.map { "\"\($0)\"" }.joined(separator: ", ")
        case .deviceName: deviceName.map { "\"\($0)\"" } ?? "none"
        case .syncPoll: "\(sync.pollMilliseconds) ms"
        case .syncFullPass: "\(sync.fullPassSeconds) s"
        case .deletionGuardPercent: "\(sync.deletionGuardPercent) %"
        case .deletionGuardMinimum: "\(sync.deletionGuardMinimum)"
        case .historyRetention: sync.historyRetentionDays == 0 ? "forever" : "\(sync.historyRetentionDays) days"
        }
    }
}
