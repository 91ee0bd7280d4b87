import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync every container with the mirror now, and show the result.",
        discussion: """
            ubqd syncs on its own as files change; this runs a pass at once. When a pass would \
            delete more than half of a container's items, ubqd holds the deletions (an unmounted \
            disk or a wrong path looks like that) until you confirm them with --confirm-deletes.
            """)

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Let through the deletions the mass-deletion guard is holding.") var confirmDeletes = false
    @Flag(help: "Look at every item, not only at what changed since the last pass (ubqd does so every 10 minutes).")
    var full = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let status = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.mirrorSync, body: SyncNowRequest(confirmDeletes: confirmDeletes, full: full), as: MirrorStatus.self)
        }
        if json { return try Output.json(status) }
        SyncStatusPrinter.print(status)
    }
}

/// The sync part of `ubq status` and `ubq sync`.
enum SyncStatusPrinter {
    static func print(_ status: MirrorStatus) {
        guard let mirror = status.mirror else { return Output.line("sync: off (no mirror configured)") }
        Output.line("mirror: \(mirror) (this device: \(status.deviceName ?? "?") \(status.device ?? "?"))")
        let rows = status.containers.map { container in
            [container.container, container.phase.rawValue, String(container.conflicts), container.message ?? ""]
        }
        Output.line(Table.render(header: ["CONTAINER", "SYNC", "CONFLICTS", "NOTE"], rows: rows, rightAligned: [2]))
        for container in status.containers {
            for problem in container.problems { Output.line("  \(container.container): \(problem)") }
        }
    }
}
