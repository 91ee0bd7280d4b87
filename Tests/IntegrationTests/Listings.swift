import Foundation

/// The two sides every integration test compares: what `ubq ls` answers and what `find`
/// sees on disk.
extension DaemonHarness {
    /// Path → size of every item ubq lists in the default container (all scopes).
    func indexedItems(predicate: String? = nil) throws -> [String: Int64] {
        var arguments = ["ls", "--scope", "all", "--json", "--attrs", "kMDItemPath,kMDItemFSSize"]
        if let predicate { arguments.append(predicate) }
        let result = try ubq(arguments)
        guard result.status == 0 else { throw HarnessError("ubq ls failed (\(result.status)): \(result.errorText)\nubqd log:\n\(log())") }
        guard let items = try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] else {
            throw HarnessError("ubq ls --json did not print an array: \(result.text)")
        }
        var table: [String: Int64] = [:]
        for item in items {
            guard let path = item["kMDItemPath"] as? String, let size = item["kMDItemFSSize"] as? NSNumber else {
                throw HarnessError("item without path or size: \(item)")
            }
            table[path] = size.int64Value
        }
        return table
    }

    /// Path → size of everything `find` sees below the container folder, minus the
    /// Documents folder itself (the scope, not an item) and names the daemon ignores.
    func diskItems(ignoring ignored: (String) -> Bool = DaemonHarness.isEditorTemporary) throws -> [String: Int64] {
        let result = try CommandResult.run("/usr/bin/find", [containerFolder, "-mindepth", "1", "-printf", "%p\\t%s\\0"], environment: environment)
        var table: [String: Int64] = [:]
        for record in result.output.split(separator: 0) {
            let line = String(decoding: record, as: UTF8.self)
            guard let tab = line.lastIndex(of: "\t") else { continue }
            let path = String(line[..<tab])
            if path == documents || ignored(URL(fileURLWithPath: path).lastPathComponent) { continue }
            table[path] = Int64(line[line.index(after: tab)...])
        }
        return table
    }

    static func isEditorTemporary(_ name: String) -> Bool {
        name.hasSuffix(".swp") || name.hasSuffix("~") || name == "4913" || name.hasPrefix(".ubq-")
    }

    /// Asserts that the index lists exactly what is on disk, sizes included.
    func expectIndexMatchesDisk() throws {
        let indexed = try indexedItems()
        let disk = try diskItems()
        if indexed != disk {
            let missing = disk.filter { indexed[$0.key] != $0.value }.keys.sorted().prefix(10)
            let extra = indexed.filter { disk[$0.key] != $0.value }.keys.sorted().prefix(10)
            throw HarnessError("index differs from disk (\(indexed.count) indexed, \(disk.count) on disk); missing or wrong: \(Array(missing)); extra or wrong: \(Array(extra))")
        }
    }
}
