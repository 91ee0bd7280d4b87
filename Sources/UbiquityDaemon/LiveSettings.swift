import Indexing
import Logging
import UbiquitySettings

/// Applies the settings a reloaded configuration may change while ubqd runs: the log level,
/// the extra ignore patterns and the `[sync]` table. Everything else (root, mirror, state and runtime
/// folders, the container list, the settle time) is fixed when ubqd starts; a change to
/// one of those waits for a restart.
struct LiveSettings: Sendable {
    let logLevels: LogLevelControl
    let pipeline: IndexPipeline
    let sync: SyncService?
    let logger: Logger

    /// Whether `key` takes effect without a restart.
    static func isLive(_ key: SettingChange.Key) -> Bool {
        switch key {
        case .logLevel, .ignore, .syncPoll, .syncFullPass, .deletionGuardPercent, .deletionGuardMinimum, .historyRetention: true
        default: false
        }
    }

    /// Checks what `apply` would need (ignore patterns that parse); throws a message naming
    /// the file and key when it cannot be applied.
    func validate(_ settings: Settings) throws(SettingsError) {
        do {
            _ = try IgnoreCatalog.baseRules(extraPatterns: settings.ignorePatterns)
        } catch {
            throw SettingsError(
                code: .invalidValue, message: "key 'ignore', pattern \(error.line): \(error.message)",
                file: settings.configFile, key: "ignore")
        }
    }

    /// Makes `change` (a live key) take effect, with its value from `settings`.
    func apply(_ change: SettingChange, from settings: Settings) async throws {
        switch change.key {
        case .logLevel:
            logLevels.level = Logger.Level(setting: settings.logLevel)
        case .ignore:
            let statistics = await pipeline.replaceIgnorePatterns(settings.ignorePatterns)
            logger.info("ignore patterns replaced; the index was reconciled: \(statistics)")
            try await sync?.replaceIgnorePatterns(settings.ignorePatterns)
        case .syncPoll, .syncFullPass, .deletionGuardPercent, .deletionGuardMinimum, .historyRetention:
            try await sync?.replaceSettings(settings.sync)
        default:
            break
        }
    }
}
