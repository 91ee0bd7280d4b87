import ArgumentParser
import CommandLineSettings
import Coordination
import DaemonClient
import Foundation

/// `ubq coordinate`: run a command while holding a coordinated claim on a path, like
/// flock(1), so scripts edit documents safely beside ubqd and apps.
struct CoordinateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coordinate",
        abstract: "Run COMMAND while holding a read or write claim on PATH; exit with its status.",
        discussion: "Example: ubq coordinate --write ~/Ubiquity/iCloud~com~example~Diary/Documents/Diary.archive -- vim Diary.archive")

    @OptionGroup var options: SettingsOptions
    @Flag(name: .long, help: "Take a shared (read) claim.") var read = false
    @Flag(name: .long, help: "Take an exclusive (write) claim.") var write = false
    @Option(help: "Give up after this many seconds (exit 75) instead of waiting forever.") var timeout: Double?
    @Argument(help: "The item to claim.") var path: String
    @Argument(parsing: .captureForPassthrough, help: "The command to run (after --).") var command: [String] = []

    func validate() throws {
        guard read != write else { throw ValidationError("choose one of --read or --write") }
        guard !arguments.isEmpty else { throw ValidationError("give the command to run after --") }
        if let timeout { try TimeoutOption.check(timeout) }
    }

    /// The command without the `--` separator.
    private var arguments: [String] { command.first == "--" ? Array(command.dropFirst()) : command }

    func run() throws {
        let settings = try options.resolve()
        // Presenters of other processes save and let go before COMMAND runs, and hear after.
        let coordinator = try FileCoordinator(
            lockDirectory: URL(fileURLWithPath: settings.runtimeDirectory + "/locks"), relay: DaemonPresenterRelay(settings: settings))
        // Claimed by its bytes as typed: a name that is not UTF-8 too (a URL cannot hold it).
        // The command's own arguments, after `--`, are not the path.
        let item = try RawArguments.bytes(of: path, in: RawArguments.beforeSeparator())
        let limit = timeout.map(TimeoutOption.duration)
        let status: Int32
        do {
            status = write
                ? try coordinator.coordinate(writingItemAtPath: item, timeout: limit) { _ in try runCommand() }
                : try coordinator.coordinate(readingItemAtPath: item, timeout: limit) { _ in try runCommand() }
        } catch let error as CoordinationError {
            Output.error(error.description)
            throw ExitCode(error.code == .timedOut ? 75 : 1)
        }
        throw ExitCode(status)
    }

    /// Runs the command as typed, bytes and all (`RawArguments`).
    private func runCommand() throws -> Int32 {
        let raw = try RawArguments.afterSeparator() ?? arguments.map { try RawArguments.bytes(of: $0) }
        return try RawSpawn.run(raw)
    }
}
