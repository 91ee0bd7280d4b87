import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show what ubqd is doing.")

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let status = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.status, as: DaemonStatus.self)
        }
        if json { return try Output.json(status) }
        Output.line("ubqd \(status.version) (pid \(status.pid)): \(status.summary)")
        Output.line("root: \(status.root)")
        Output.line("watching \(status.watchedFolders) folders" + (status.polledFolders > 0 ? ", polling \(status.polledFolders) (out of inotify watches)" : ""))
    }
}
