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
        let mode = version.mode.flatMap { UInt32($0, radix: 8) }.map { "  " + permissions($0, folder: version.kind == "folder") } ?? ""
        return Table.terminalSafe("\(mark)  \(version.id)  \(version.date)  \(version.deviceName)  \(what)\(mode)")
    }

    /// `-rwxr-xr-x`, as `ls -l` shows a mode (setuid, setgid and sticky included).
    static func permissions(_ mode: UInt32, folder: Bool) -> String {
        // Owner, group, others: where their bits are, and the special bit shown in place of x.
        let classes: [(shift: UInt32, special: UInt32, letter: Character)] = [(6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")]
        var text: [Character] = [folder ? "d" : "-"]
        for (shift, special, letter) in classes {
            let bits = (mode >> shift) & 7
            let executable = bits & 1 != 0
            let execute: Character = mode & special == 0 ? (executable ? "x" : "-") : executable ? letter : Character(letter.uppercased())
            text += [bits & 4 != 0 ? "r" : "-", bits & 2 != 0 ? "w" : "-", execute]
        }
        return String(text)
    }
}
