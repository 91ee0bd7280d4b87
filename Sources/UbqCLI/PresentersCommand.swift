import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

/// `ubq presenters`: the file presenters processes have registered with ubqd.
struct PresentersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "presenters",
        abstract: "List the file presenters registered with ubqd (pid, program, since, path).",
        discussion: "A presenter is asked to save and relinquish its item before another process's coordinated access, and told what changed after (see docs/API.md).")

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Print a JSON array of {pid, program, path, rawPath, since, session, presenter}.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let presenters = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.presenters, as: [PresenterInfo].self)
        }
        if json { return try Output.json(presenters) }
        guard !presenters.isEmpty else { return Output.line("no presenters registered") }
        let rows = presenters.map { [String($0.pid), Table.terminalSafe($0.program), $0.since, Table.terminalSafe($0.path)] }
        Output.line(Table.render(header: ["PID", "PROGRAM", "SINCE", "PATH"], rows: rows, rightAligned: [0]))
    }
}
