import Foundation
import Logging
import ServiceLifecycle
import UbiquitySettings
import UnixSignals

/// SIGHUP (`systemctl --user reload ubqd`) reads the configuration again. What can change
/// live is applied (`LiveSettings`); a change that needs a restart is logged as such and
/// left as it was; a configuration that does not resolve (a TOML syntax error, an unknown
/// key, a bad value) is logged with its file and position, and every setting stays.
struct ConfigReloadService: Service, CustomStringConvertible {
    /// Trapped before the service group starts, so that a SIGHUP never finds the default
    /// action (ending the process) in place once ubqd said it is ready.
    let signals: UnixSignalsSequence
    let running: Settings
    /// Resolves the settings again, as at start-up (same flags and environment).
    let resolve: @Sendable () throws(SettingsError) -> Settings
    let live: LiveSettings
    let notifier: SystemdNotifier
    let logger: Logger

    /// How the service group names it in its log lines.
    var description: String { "ConfigReloadService" }

    func run() async {
        var current = running
        for await _ in signals.cancelOnGracefulShutdown() {
            notifier.notify("RELOADING=1", "MONOTONIC_USEC=\(Self.monotonicMicroseconds())")
            current = await reload(current)
            notifier.notify("READY=1")
        }
    }

    /// The settings in force after one reload.
    func reload(_ current: Settings) async -> Settings {
        let next: Settings
        do {
            next = try resolve()
            try live.validate(next)
        } catch {
            logger.error("configuration not reloaded, the current settings stay: \(error)")
            return current
        }
        let source = next.configFile ?? "the defaults (no configuration file)"
        let changes = current.changes(to: next)
        let (liveChanges, fixed) = (changes.filter { LiveSettings.isLive($0.key) }, changes.filter { !LiveSettings.isLive($0.key) })
        var applied = current
        for change in liveChanges { await apply(change, from: next, to: &applied) }
        logger.info("configuration reloaded from \(source): \(liveChanges.isEmpty ? "nothing to change" : "applied " + Self.list(liveChanges))")
        if !fixed.isEmpty {
            logger.warning("configuration changes that need a restart (systemctl --user restart ubqd) were not applied: \(Self.list(fixed))")
        }
        return applied
    }

    private func apply(_ change: SettingChange, from next: Settings, to applied: inout Settings) async {
        do {
            try await live.apply(change, from: next)
            switch change.key {
            case .logLevel: applied.logLevel = next.logLevel
            case .ignore: applied.ignorePatterns = next.ignorePatterns
            case .syncPoll: applied.sync.pollMilliseconds = next.sync.pollMilliseconds
            case .syncFullPass: applied.sync.fullPassSeconds = next.sync.fullPassSeconds
            case .deletionGuardPercent: applied.sync.deletionGuardPercent = next.sync.deletionGuardPercent
            case .deletionGuardMinimum: applied.sync.deletionGuardMinimum = next.sync.deletionGuardMinimum
            case .historyRetention: applied.sync.historyRetentionDays = next.sync.historyRetentionDays
            default: break
            }
        } catch {
            logger.error("could not apply \(change): \(error)")
        }
    }

    private static func list(_ changes: [SettingChange]) -> String {
        changes.map(\.description).joined(separator: ", ")
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
