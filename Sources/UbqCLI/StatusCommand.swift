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
        let sync = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.mirror, as: MirrorStatus.self)
        }
        if json { return try Output.json(StatusReply(daemon: status, sync: sync)) }
        Output.line("ubqd \(status.version) (pid \(status.pid)): \(status.summary)")
        Output.line("root: \(status.root)")
        Output.line("watching \(status.watchedFolders) folders" + (status.polledFolders > 0 ? ", polling \(status.polledFolders) (inotify cannot watch them: out of watches, or a path over 4096 bytes; ubqd's log says which)" : ""))
        SyncStatusPrinter.print(sync)
    }
}

/// `ubq status --json`: the daemon's status with its sync status.
struct StatusReply: Encodable {
    var daemon: DaemonStatus
    var sync: MirrorStatus

    func encode(to encoder: any Encoder) throws {
        try daemon.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(sync, forKey: .sync)
    }

    private enum Key: String, CodingKey { case sync }
}
