import Crypto
import Foundation
import Glibc
import SyncPlanning

/// The mirror's content-addressed store: objects named by their SHA-256, written once,
/// never changed. Writing goes through `store/incoming/` so a partial upload is never
/// visible under an object's name.
struct ContentStore {
    let layout: MirrorLayout
    let device: String

    func contains(_ sha256: String, size: Int64) -> Bool {
        guard let info = Sys.lstat(layout.object(sha256)) else { return false }
        return Int64(info.st_size) == size
    }

    /// Stores the content of the local file at `path`, which the scan found to hash to
    /// `expected`. Throws `changedMeanwhile` if the file changed since (the bytes read now
    /// hash otherwise): nothing is stored then.
    func store(path: String, expected: ContentHashing.Result) throws(SyncError) {
        if contains(expected.sha256, size: expected.size) { return }
        try Sys.makeFolders(layout.incoming)
        let staging = "\(layout.incoming)/\(device).\(UInt64.random(in: 0...UInt64.max)).part"
        let source = try Sys.open(path, O_RDONLY | O_NOFOLLOW)
        defer { close(source) }
        let result: ContentHashing.Result
        do {
            result = try DurableFile.write(staging, mode: 0o444) { fd throws(SyncError) in
                try ContentHashing.stream(from: source, path: path, to: fd, destinationPath: staging)
            }
        } catch {
            unlink(staging)
            throw error
        }
        guard result == expected else {
            unlink(staging)
            throw SyncError(.changedMeanwhile, "\(path) changed while it was uploaded; it will be uploaded once it settles")
        }
        let object = layout.object(expected.sha256)
        let folder = Sys.parent(of: object)
        try Sys.makeFolders(folder)
        try Sys.rename(staging, object)
        try Sys.fsyncFolder(folder)
    }

    /// Copies object `sha256` to `destination` (a new file), checking its hash on the way:
    /// a damaged or truncated object is refused, never handed to the user.
    func fetch(_ sha256: String, to destination: String, mode: mode_t) throws(SyncError) {
        let object = layout.object(sha256)
        let source = try Sys.open(object, O_RDONLY | O_NOFOLLOW)
        defer { close(source) }
        let result = try DurableFile.write(destination, mode: mode) { fd throws(SyncError) in
            try ContentHashing.stream(from: source, path: object, to: fd, destinationPath: destination)
        }
        guard result.sha256 == sha256 else {
            unlink(destination)
            throw SyncError(.corruptMirror, "\(object) does not hash to its name (got \(result.sha256)); the mirror's copy is damaged")
        }
    }

    /// The largest object read whole into memory (a diary to merge).
    static let largestReadWhole = 64 << 20

    /// The content of `record`'s file, checked against its hash; nil for a folder, a link,
    /// a deletion or a file too large to read whole.
    func bytes(of record: VersionRecord) throws(SyncError) -> [UInt8]? {
        guard let state = record.state, state.kind == .file, let sha256 = state.sha256, state.size <= Self.largestReadWhole else { return nil }
        let object = layout.object(sha256)
        guard let data = FileManager.default.contents(atPath: object) else { throw .system("open", object, errno: ENOENT) }
        let bytes = [UInt8](data)
        guard ContentHashing.hex(SHA256.hash(data: bytes)) == sha256 else {
            throw SyncError(.corruptMirror, "\(object) does not hash to its name; the mirror's copy is damaged")
        }
        return bytes
    }

    /// Stores `bytes` (made here, like a merged diary) and returns their hash.
    func store(bytes: [UInt8]) throws(SyncError) -> ContentHashing.Result {
        let result = ContentHashing.Result(sha256: ContentHashing.hex(SHA256.hash(data: bytes)), size: Int64(bytes.count))
        if contains(result.sha256, size: result.size) { return result }
        try Sys.makeFolders(layout.incoming)
        let staging = "\(layout.incoming)/\(device).\(UInt64.random(in: 0...UInt64.max)).part"
        do {
            try DurableFile.write(staging, mode: 0o444) { fd throws(SyncError) in try Sys.writeAll(fd, bytes, path: staging) }
        } catch {
            unlink(staging)
            throw error
        }
        let object = layout.object(result.sha256)
        try Sys.makeFolders(Sys.parent(of: object))
        try Sys.rename(staging, object)
        try Sys.fsyncFolder(Sys.parent(of: object))
        return result
    }
}
