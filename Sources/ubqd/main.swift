import ArgumentParser
import CommandLineSettings
import Foundation
import Logging
import UbiquityDaemon
import UbiquitySettings

/// `ubqd`: the Ubiquity daemon. Thin: resolves settings, makes the logger, runs `Daemon`.
@main
struct UbqDaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ubqd",
        abstract: "Watch the ubiquity containers, index their documents and serve the local API.",
        discussion: "Settings resolve as flags > environment (UBQ_ROOT, UBQ_MIRROR, UBQ_STATE_DIR, UBQ_RUNTIME_DIR, UBQ_CONFIG, UBQ_LOG_LEVEL, UBQ_DEVICE_NAME) > config file > XDG defaults. Every key of the config file: docs/config.sample.toml.")

    @OptionGroup var location: SettingsOptions

    func run() async throws {
        // A log whose reader went away (a pipe, a journal stream cut) must not end the
        // daemon: the write fails with EPIPE instead, and the line is dropped
        // (`JournalLogHandler`). SwiftNIO ignores the signal too, but only once it starts.
        signal(SIGPIPE, SIG_IGN)
        let settings = try location.resolve()
        let levels = LogLevelControl(Logger.Level(setting: settings.logLevel))
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, control: levels) }
        let logger = Logger(label: "ubqd")
        let overrides = location.overrides
        do {
            try await Daemon(
                settings: settings, logger: logger, logLevels: levels,
                resolveSettings: { () throws(SettingsError) in try SettingsOptions.resolve(overrides) }
            ).run()
        } catch let error as DaemonError {
            logger.critical("\(error.message)")
            throw ExitCode(1)
        }
    }
}
