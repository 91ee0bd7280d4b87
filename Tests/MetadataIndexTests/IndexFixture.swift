import APIModel
import Foundation
import MetadataIndex
import RawPaths

/// A real index in a temporary folder, with helpers to add items without a disk.
struct IndexFixture {
    let folder: String
    let index: MetadataIndex
    static let root = RawPath("/r")
    static let container = "iCloud.org.ubiquity.Default"

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-index-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        index = try MetadataIndex(path: folder + "/index.sqlite", root: Self.root)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    static func item(_ relative: String, size: Int64 = 10, kind: FileSignature.Kind = .file, modified: Double = 0, type: String = "public.plain-text", tree: [String]? = nil, text: String? = nil) -> ItemSnapshot {
        let rel = RawPath(relative)
        return ItemSnapshot(
            container: container, containerDisplayName: "Default", relativePath: rel,
            absolutePath: root.appending("iCloud~org~ubiquity~Default").appending(rel),
            signature: FileSignature(kind: kind, device: 1, inode: UInt64(abs(relative.hashValue % 100_000)), size: size, modifiedNanoseconds: 1, changedNanoseconds: 1),
            created: modified, modified: modified, contentType: kind == .folder ? "public.folder" : type,
            contentTypeTree: tree ?? (kind == .folder ? ["public.folder", "public.item"] : [type, "public.text", "public.data", "public.item"]),
            textContent: text)
    }

    func query(_ predicate: String?, scope: SearchScope = .all, sort: [SortKey] = [], limit: Int? = nil) throws -> [String] {
        let plan = try QueryPlan(QueryRequest(predicate: predicate, scope: scope, sort: sort, limit: limit, attributes: ["kMDItemFSName"], sync: false))
        return try index.run(plan).items.compactMap {
            if case .string(let name)? = $0.attributes["kMDItemFSName"] { return name }
            return nil
        }
    }
}
