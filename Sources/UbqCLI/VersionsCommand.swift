import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

struct VersionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions", abstract: "List the versions of an item kept in the mirror, newest first.",
        discussion: "Bring one back with `ubq restore PATH --version VERSION`.")

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The item (it may have been deleted).") var path: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let item = try ItemLocator.locate(path, settings: connection.settings)
        let versions = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.versions, body: item, as: [VersionInfo].self)
        }
        if json { return try Output.json(versions) }
        for version in versions { Output.line(VersionRow.text(version)) }
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Make an old version of an item current again (on every device).",
        discussion: """
            The version is written in place and published before ubq returns: it replaces the \
            current version on every device. A file with changes not synced yet is left alone \
            (run `ubq sync`, then try again).

            A deleted folder's version (from `ubq versions FOLDER` or `ubq deleted`) brings the \
            folder back with what it held when it was deleted: every file, link and folder below \
            it that the same device deleted with it (in the minute before), at its last version. \
            What was deleted from it earlier, or on another device, stays deleted; an item that \
            cannot come back is named (exit status 1), the others are restored.

            Exit status: 0 when done; 75 when the mirror cannot be used now (not mounted, or not answering); 78 \
            when no mirror is configured; 1 otherwise (the message says why).
            """)

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The item.") var path: String
    @Option(help: "The version id, from `ubq versions`.") var version: String

    func run() async throws {
        let connection = try Connection(options)
        let item = try ItemLocator.locate(path, settings: connection.settings)
        let result = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.restore, body: RestoreRequest(item: item, version: version), as: RestoreResult.self)
        }
        guard let items = result.items else { return Output.line(Table.terminalSafe("restored \(path) to version \(version)")) }
        let below = items.filter { $0 != item.path }.count
        Output.line(Table.terminalSafe("restored \(items.contains(item.path) ? path : "nothing at " + path) and \(below) item\(below == 1 ? "" : "s") below it"))
        let problems = result.problems ?? []
        guard !problems.isEmpty else { return }
        for problem in problems { Output.error(Table.terminalSafe("ubq: not restored: \(problem)")) }
        throw ExitCode.failure
    }
}

struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Resolve an item's conflict.",
        discussion: """
            --keep current keeps the current version; --keep VERSION makes that version current; \
            --keep all keeps the current version and puts each other one beside it as \
            'name (conflict from DEVICE YYYY-MM-DD).ext'. Superseded versions stay in `ubq versions`. \
            --keep current --only VERSION resolves that conflict version alone; the item's other \
            conflict versions stay unresolved. --remove-others also removes every version the \
            resolution replaces from the history, on every device (they can no longer be restored).

            An item with no conflict version is left as it is ("nothing to resolve"), unless \
            --remove-others asks to remove its other versions.

            Exit status: 0 when done, or when there was nothing to resolve; 75 when the mirror cannot be used now (not mounted, or not answering); 78 \
            when no mirror is configured; 1 otherwise (the message says why).
            """)

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The item in conflict.") var path: String
    @Option(help: "current, all, or a version id from `ubq conflicts`.") var keep: String
    @Option(help: "With --keep current: a conflict version to resolve, leaving the others (repeatable).") var only: [String] = []
    @Flag(help: "Remove the versions the resolution replaces from the history, on every device.") var removeOthers = false

    func run() async throws {
        let connection = try Connection(options)
        let item = try ItemLocator.locate(path, settings: connection.settings)
        let request = ResolveRequest(item: item, keep: keep, only: only.isEmpty ? nil : only, removeOtherVersions: removeOthers ? true : nil)
        let answer = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.resolve, body: request, as: [String: Bool].self)
        }
        guard answer["resolved"] != false else {
            return Output.line(Table.terminalSafe("nothing to resolve: \(path) has no unresolved conflict version\(only.isEmpty ? "" : " of those")"))
        }
        Output.line(Table.terminalSafe(only.isEmpty ? "resolved \(path) (kept \(keep))" : "resolved \(only.joined(separator: ", ")) of \(path) (kept current)"))
    }
}
