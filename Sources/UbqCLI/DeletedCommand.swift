import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient
import UbiquitySettings

/// `ubq deleted`: what was deleted and can still be brought back. `ubq versions` needs
/// the path, and a deleted file is no longer there to be named from.
struct DeletedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deleted", abstract: "List the deleted items whose content the history still keeps, newest deletion first.",
        discussion: "Bring one back with `ubq restore PATH --version VERSION` (the version listed).")

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The folder to look below (a container folder for all of it).") var folder = "."
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let item = try ItemLocator.locate(folder, settings: connection.settings, allowingTheContainerFolder: true)
        let deleted = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.deleted, body: item, as: [DeletedItemInfo].self)
        }
        if json { return try Output.json(deleted) }
        guard !deleted.isEmpty else { return Output.line(Table.terminalSafe("nothing deleted below \(folder) can be restored")) }
        let rows = deleted.map { Self.row($0, root: connection.settings.root) }
        Output.line(Table.render(header: ["DELETED", "BY", "VERSION", "SIZE", "PATH"], rows: rows, rightAligned: [3]))
    }

    /// The path in full, as `ubq conflicts` shows it: what `ubq restore` takes from anywhere.
    static func row(_ item: DeletedItemInfo, root: String) -> [String] {
        let last = item.lastVersion
        let size = last.kind == "file" ? "\(last.size ?? 0)" : last.kind
        let folder = (try? ContainerID(item.container))?.folderName ?? item.container
        return [item.deletion.date, item.deletion.deviceName, last.id, size, "\(root)/\(folder)/\(item.path)"].map { Table.terminalSafe($0) }
    }
}
