/// How `ubqd` paces sync and guards against mass deletion: the `[sync]` table of
/// config.toml. Every value has a documented default and a range; see
/// `docs/config.sample.toml`.
public struct SyncSettings: Sendable, Equatable {
    /// How often, in milliseconds, the other devices' logs in the mirror are looked at
    /// (inotify does not see another machine's writes over a network filesystem). Default 100.
    public var pollMilliseconds: Int
    /// How often, in seconds, a pass looks at every item rather than only at what changed
    /// (the scan is the truth, the watcher a hint). Default 600.
    public var fullPassSeconds: Int
    /// A pass that would delete more than this share of a container's items, in percent,
    /// holds its deletions until `ubq sync --confirm-deletes`. 100 never holds. Default 50.
    public var deletionGuardPercent: Int
    /// Below this many deletions a pass never holds them (deleting 3 of 4 files is
    /// normal). Default 20.
    public var deletionGuardMinimum: Int
    /// How long, in days, a replaced or deleted version stays restorable (and its content
    /// in the mirror) after it was replaced; 0 keeps every version forever. Default 30.
    public var historyRetentionDays: Int

    public init(
        pollMilliseconds: Int = SyncSettings.defaultPollMilliseconds,
        fullPassSeconds: Int = SyncSettings.defaultFullPassSeconds,
        deletionGuardPercent: Int = SyncSettings.defaultDeletionGuardPercent,
        deletionGuardMinimum: Int = SyncSettings.defaultDeletionGuardMinimum,
        historyRetentionDays: Int = SyncSettings.defaultHistoryRetentionDays
    ) {
        self.pollMilliseconds = pollMilliseconds
        self.fullPassSeconds = fullPassSeconds
        self.deletionGuardPercent = deletionGuardPercent
        self.deletionGuardMinimum = deletionGuardMinimum
        self.historyRetentionDays = historyRetentionDays
    }

    public static let defaultPollMilliseconds = 100
    public static let defaultFullPassSeconds = 600
    public static let defaultDeletionGuardPercent = 50
    public static let defaultDeletionGuardMinimum = 20
    public static let defaultHistoryRetentionDays = 30

    /// The keys of the `[sync]` table.
    enum Key: String, CaseIterable, Sendable {
        case pollIntervalMs = "poll_interval_ms"
        case fullPassIntervalS = "full_pass_interval_s"
        case deletionGuardPercent = "deletion_guard_percent"
        case deletionGuardMinimum = "deletion_guard_minimum"
        case historyRetentionDays = "history_retention_days"

        /// What values are accepted: below 10 ms polling is busy-waiting, above a minute
        /// other devices' changes arrive too late to be useful; a full pass at most every
        /// 10 s and at least once a day.
        var range: ClosedRange<Int> {
            switch self {
            case .pollIntervalMs: 10...60_000
            case .fullPassIntervalS: 10...86_400
            case .deletionGuardPercent: 1...100
            case .deletionGuardMinimum: 1...1_000_000
            case .historyRetentionDays: 0...36_500  // (0: forever)
            }
        }

        /// The unit named in error messages.
        var unit: String {
            switch self {
            case .pollIntervalMs: "milliseconds"
            case .fullPassIntervalS: "seconds"
            case .deletionGuardPercent: "percent"
            case .deletionGuardMinimum: "deletions"
            case .historyRetentionDays: "days (0 keeps everything)"
            }
        }

        var defaultValue: Int {
            switch self {
            case .pollIntervalMs: SyncSettings.defaultPollMilliseconds
            case .fullPassIntervalS: SyncSettings.defaultFullPassSeconds
            case .deletionGuardPercent: SyncSettings.defaultDeletionGuardPercent
            case .deletionGuardMinimum: SyncSettings.defaultDeletionGuardMinimum
            case .historyRetentionDays: SyncSettings.defaultHistoryRetentionDays
            }
        }
    }

    /// Sets `key` to `value`, which must be within the key's range; else an error naming
    /// `source`, the range and the default.
    mutating func set(_ key: Key, _ value: Int, from source: SettingSource) throws(SettingsError) {
        guard key.range.contains(value) else {
            throw source.error(
                .invalidValue,
                "\(source.phrase) is \(value); use a number of \(key.unit) from \(key.range.lowerBound) to "
                    + "\(key.range.upperBound), e.g. \(key.defaultValue)")
        }
        switch key {
        case .pollIntervalMs: pollMilliseconds = value
        case .fullPassIntervalS: fullPassSeconds = value
        case .deletionGuardPercent: deletionGuardPercent = value
        case .deletionGuardMinimum: deletionGuardMinimum = value
        case .historyRetentionDays: historyRetentionDays = value
        }
    }
}

extension TOMLReader {
    /// The `[sync]` table: only known keys, each an integer in its range.
    func sync(_ key: String) throws(SettingsError) -> SyncSettings {
        let fix = "write it as a [\(key)] table, e.g. [\(key)] followed by poll_interval_ms = 100"
        guard let table = table[key]?.table else { throw wrongType(key, expected: "a table", fix: fix) }
        let entries = TOMLReader(table: table, path: path, text: text)
        let known = SyncSettings.Key.allCases.map(\.rawValue)
        var settings = SyncSettings()
        for name in table.keys.sorted() {
            guard let syncKey = SyncSettings.Key(rawValue: name) else {
                throw entries.unknownKey(name, context: "[\(key)]", known: known)
            }
            do {
                try settings.set(syncKey, try entries.int(name), from: .file(path: path, key: "\(key).\(name)"))
            } catch {
                throw entries.locate(error, key: name)
            }
        }
        return settings
    }
}
