import Glibc
import RawPaths

/// Names for a scan's early copies of small files, a few in each folder below
/// `store/incoming/` (`store/incoming/<device>.<random>-<k>/<n>.part`), instead of all of
/// them side by side there.
///
/// A first sync copies every small file of the container into `store/incoming/` before its
/// batches rename the copies into the store. In one folder, that folder grew to 100,000
/// names: each create looked its name up in a large hashed directory and added it there,
/// the two hashing threads waited for each other's lock on the folder, and each rename
/// took its name out again. In a first sync of 100,000 files (perf, a new ext4), creating
/// the copies cost 0.43 s of spinning on the folder's lock and 0.27 s of lookups in it.
/// In folders of `perFolder` names, as many as the files one hashing thread takes in a
/// row (`ScanHashing.chunkSize`), the two threads mostly create in different folders, and
/// each folder's names fit in one block.
///
/// Used by one thread at a time: the scan hands out the names before it hashes.
final class StagingFolders {
    /// How many copies go in one folder.
    static let perFolder = ScanHashing.chunkSize

    /// `store/incoming/<device>.<random>`: the folders are this and `-<k>`.
    private let prefix: String
    private var handedOut = 0

    init(store: ContentStore) {
        prefix = "\(store.layout.incoming)/\(store.device).\(UniqueToken.next())"
    }

    /// A new staging path. Its folder is made by the write that finds it missing
    /// (`DurableFile.write`'s `makingFolder`).
    func next() -> String {
        defer { handedOut += 1 }
        return "\(prefix)-\(handedOut / Self.perFolder)/\(handedOut % Self.perFolder).part"
    }

    /// Removes the folders, with the copies still in them: once the pass is over, those
    /// are the copies no upload took (an upload renamed its copy into the store). After a
    /// first sync nearly every folder is empty, and one `rmdir` is all it costs. A folder
    /// never made (no copy written in it: a full mirror) is simply not there.
    func removeAll() {
        let folders = (handedOut + Self.perFolder - 1) / Self.perFolder
        for folder in (0..<folders).map({ "\(prefix)-\($0)" }) {
            guard rmdir(folder) != 0, errno == ENOTEMPTY else { continue }
            for name in MirrorView.names(in: RawPath(folder)) { unlink(folder + "/" + String(decoding: name, as: UTF8.self)) }
            rmdir(folder)
        }
    }
}
