import Indexing
import SyncPlanning

/// The files a scan finds at a path the base does not know, which the base knows at
/// another: the files of a renamed folder. Such a file is the base's, unchanged, when it
/// has the signature the base kept with it (the same inode, size, and modification and
/// change times to the nanosecond), so its content is known without reading it. Renaming
/// a folder changes none of its files' times; without this, renaming a folder of photos
/// read every photo again. Renaming a file itself changes its change time, so it is read.
///
/// The base's rows are indexed by inode on first use only: a pass whose files are all at
/// paths the base knows (a re-sync of edited files) builds nothing.
final class MovedFiles {
    private let base: [String: BaseRow]
    private var byInode: [UInt64: BaseRow]?

    init(base: [String: BaseRow]) {
        self.base = base
    }

    /// The base's state of the file with `signature` at `path`, if the base holds nothing
    /// at `path` (or a deletion: a folder moved back where it once was) and kept that
    /// signature with another path.
    func state(of status: FileStatus, _ signature: LocalSignature, at path: String) -> EntryState? {
        guard status.signature.kind == .file, base[path]?.entry.state == nil else { return nil }
        let row = index()[signature.inode]
        return LocalTree.keptState(of: status, signature, known: row)
    }

    private func index() -> [UInt64: BaseRow] {
        if let byInode { return byInode }
        var index: [UInt64: BaseRow] = [:]
        for row in base.values {
            if let inode = row.signature?.inode { index[inode] = row }
        }
        byInode = index
        return index
    }
}
