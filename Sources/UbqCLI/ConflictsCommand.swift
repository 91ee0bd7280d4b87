import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient
import UbiquitySettings

struct ConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List items with unresolved conflict versions (changed on two devices at once).",
        discussion: "Resolve one with `ubq resolve PATH --keep current|VERSION|all`.")

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Print a JSON array of {container, path, current, others}.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let conflicts = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.conflicts, as: [ConflictInfo].self)
        }
        if json { return try Output.json(conflicts) }
        guard !conflicts.isEmpty else { return Output.line("no conflicts") }
        for conflict in conflicts {
            let folder = (try? ContainerID(conflict.container))?.folderName ?? conflict.container
            Output.line(Table.terminalSafe("\(connection.settings.root)/\(folder)/\(conflict.path)"))
            for version in [conflict.current] + conflict.others {
                Output.line("  " + VersionRow.text(version))
            }
        }
    }
}

/// One version on a line. Its device's name comes from the mirror, where any device wrote
/// it: shown escaped (`Table.terminalSafe`), like a path, so that it cannot act on the
/// terminal.
enum VersionRow {
    static func text(_ version: VersionInfo) -> String {
        let mark = version.current ? "current " : version.conflict ? "conflict" : "        "
        let what = version.kind == "file" ? "\(version.size ?? 0) bytes" : version.kind
        return Table.terminalSafe("\(mark)  \(version.id)  \(version.date)  \(version.deviceName)  \(what)")
    }
}
