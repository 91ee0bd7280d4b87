import Glibc

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
}
