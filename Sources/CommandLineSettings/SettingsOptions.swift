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
        let overrides = SettingsOverrides(
            root: root, mirror: mirror, stateDirectory: stateDirectory, runtimeDirectory: runtimeDirectory,
            configFile: configFile, logLevel: logLevel)
        do {
            return try Settings.resolve(
                overrides: overrides, environment: ProcessInfo.processInfo.environment,
                currentDirectory: FileManager.default.currentDirectoryPath, readFile: Self.readFile)
        } catch {
            throw ValidationError(error.description)
        }
    }

    private static func readFile(_ path: String) throws -> String? {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        }
    }
}
