import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient
import Foundation
import UbiquitySettings

/// `ubq deleted`: what was deleted and can still be brought back. `ubq versions` needs
/// the path, and a deleted file is no longer there to be named from.
struct DeletedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deleted", abstract: "List the deleted items whose content the history still keeps, newest deletion first.",
        discussion: "Bring one back with `ubq restore PATH --version VERSION` (the version listed).")

    @OptionGroup var options: SettingsOptions
    @Argument(
        help: "The folder to look below (a container folder for all of it, the root for every container). Default: the current folder when it is in a container, else every container."
    ) var folder: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let (scopes, everywhere) = try await scopes(connection)
        var deleted: [DeletedItemInfo] = []
        for scope in scopes {
            deleted += try await Connection.reportingErrors { () async throws(DaemonClientError) in
                do throws(DaemonClientError) {
                    return try await connection.client.post(Route.deleted, body: scope, as: [DeletedItemInfo].self)
                } catch where everywhere && error.status == 404 {
                    return []  // a container made since ubqd started: sync knows it after a restart, and nothing was deleted from it yet
                }
            }
        }
        if scopes.count > 1 { deleted.sort { $0.deletion.date > $1.deletion.date } }  // each list is newest first already
        if json { return try Output.json(deleted) }
        guard !deleted.isEmpty else {
            return Output.line(Table.terminalSafe(everywhere ? "nothing deleted can be restored" : "nothing deleted below \(folder ?? ".") can be restored"))
        }
        let listing = DeletedListing(deleted, below: everywhere ? "" : scopes[0].path)
        let rows = listing.shown.map { Self.row($0, inside: listing.inside[DeletedListing.key($0.container, $0.path)], root: connection.settings.root) }
        Output.line(Table.render(header: ["DELETED", "BY", "VERSION", "SIZE", "PATH"], rows: rows, rightAligned: [3]))
        if listing.hidden > 0 {
            Output.line("\(listing.hidden) item\(listing.hidden == 1 ? "" : "s") deleted with the folders listed, which restoring a folder brings back: `ubq deleted FOLDER` lists them")
        }
    }

    /// What to look below: the folder named (every container for the root), else the
    /// current folder if it is in a container, else every container (as `ubq conflicts`
    /// lists them from anywhere).
    private func scopes(_ connection: Connection) async throws -> (scopes: [VersionedItem], everywhere: Bool) {
        let settings = connection.settings
        if let folder {
            let absolute = folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder
            if !VersionedItem.isRoot(absolute, settings: settings) {
                return ([try ItemLocator.locate(folder, settings: settings, allowingTheContainerFolder: true)], false)
            }
        } else if let here = try? ItemLocator.locate(".", settings: settings, allowingTheContainerFolder: true) {
            return ([here], false)
        }
        let containers = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.containers, as: [ContainerInfo].self)
        }
        return (containers.map { VersionedItem(container: $0.id, path: "") }, true)
    }

    /// The path in full, as `ubq conflicts` shows it: what `ubq restore` takes from anywhere.
    /// A folder holding `inside` items not listed shows that count as its size.
    static func row(_ item: DeletedItemInfo, inside: Int? = nil, root: String) -> [String] {
        let last = item.lastVersion
        let size = last.kind == "file" ? "\(last.size ?? 0)" : inside.map { "\(last.kind), \($0) item\($0 == 1 ? "" : "s")" } ?? last.kind
        let folder = (try? ContainerID(item.container))?.folderName ?? item.container
        return [item.deletion.date, item.deletion.deviceName, last.id, size, "\(root)/\(folder)/\(item.path)"].map { Table.terminalSafe($0) }
    }
}

/// What `ubq deleted` shows of a listing: an item that went with a deleted folder listed
/// below the folder asked about is counted in that folder's row instead of listed (a
/// folder of a thousand files is one row, as in iCloud Drive's Recently Deleted); the
/// items of the folder asked about itself are listed.
struct DeletedListing {
    var shown: [DeletedItemInfo] = []
    /// `container/path` of a folder → how many items went with it and are not listed.
    var inside: [String: Int] = [:]
    var hidden: Int { inside.values.reduce(0, +) }

    /// `scope`: the container-relative folder asked about ("" for a whole container).
    init(_ items: [DeletedItemInfo], below scope: String) {
        let listedFolders = Set(items.filter { $0.lastVersion.kind == "folder" }.map { Self.key($0.container, $0.path) })
        for item in items {
            if let folder = item.folder.map({ Self.key(item.container, $0) }), item.folder != scope, listedFolders.contains(folder) {
                inside[folder, default: 0] += 1
            } else {
                shown.append(item)
            }
        }
    }

    /// How a folder is named across containers: `container/path`.
    static func key(_ container: String, _ path: String) -> String { container + "/" + path }
}
