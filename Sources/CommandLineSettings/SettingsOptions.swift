import ArgumentParser
import Foundation
import UbiquitySettings

/// The flags `ubqd` and `ubq` share, so one set of flags (or one environment) points both
/// at one instance.
public struct SettingsOptions: ParsableArguments {
    @Option(help: "The folder holding the containers (env UBQ_ROOT; default ~/Ubiquity).")
    public var root: String?

    @Option(help: "The mirror folder devices sync through (env UBQ_MIRROR).")
    public var mirror: String?

    @Option(name: .customLong("state-dir"), help: "Where the index and sync state live (env UBQ_STATE_DIR).")
    public var stateDirectory: String?

    @Option(name: .customLong("runtime-dir"), help: "Where the API socket lives (env UBQ_RUNTIME_DIR).")
    public var runtimeDirectory: String?

    @Option(name: .customLong("config"), help: "The configuration file (env UBQ_CONFIG; default $XDG_CONFIG_HOME/ubiquity/config.toml).")
    public var configFile: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env UBQ_LOG_LEVEL).")
    public var logLevel: String?

    public init() {}

    /// Resolves the settings from these flags, the environment and the config file.
    public func resolve() throws -> Settings {
        do {
            return try Self.resolve(overrides)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What these flags give.
    public var overrides: SettingsOverrides {
        SettingsOverrides(
            root: root, mirror: mirror, stateDirectory: stateDirectory, runtimeDirectory: runtimeDirectory,
            configFile: configFile, logLevel: logLevel)
    }

    /// Resolves `overrides` with the process's environment, current folder and config file
    /// as they are now: `ubqd` calls it again to reload its configuration.
    public static func resolve(_ overrides: SettingsOverrides) throws(SettingsError) -> Settings {
        try Settings.resolve(
            overrides: overrides, environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath, readFile: readFile)
    }

    private static func readFile(_ path: String) throws -> String? {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        }
    }
}
