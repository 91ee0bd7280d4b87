import CStatx
import Foundation
import Glibc
import RawPaths

/// A file's copy into `store/incoming/`, made while the scan hashes it, for its upload.
///
/// - A large file is copied on a thread of its own (a reflink, else written straight to
///   the disk: `ContentStore.earlyCopy`), so the disk writes the upload while the CPU works
///   out its name. Without it a large file was read and hashed first, and only then
///   copied: for 1 GiB here, 1.1 s of hashing with the disk idle before a copy the disk
///   then took 1.5 s to write.
/// - A small file is written from the bytes the hash reads, so its upload need not open,
///   read and hash it a second time (the bulk of a first sync of many small files).
///
/// The copy stands for the content the scan hashed only if no write came between the
/// moment its signature was taken, before the copy and the hash both began, and the moment
/// the upload is staged: `ContentStore.stage` checks the file's signature again then.
/// A small file is copied only when its signature vouches for it
/// (`LocalSignature.vouches`): any write after the scan's start then changes it.
///
/// Early copies are dirty until a batch commits them, so the batches of a first sync count
/// those still to come as their own when they choose how to sync (`BatchDurability`).
struct EarlyCopy {
    /// The staging file, not synced: `ContentStore.commit` syncs and renames it.
    let staging: String
    /// The source's signature before the copy began and after it ended.
    let signature: LocalSignature

    /// Files from this size up are copied while they are hashed. Smaller ones hash in a
    /// few milliseconds, and a copy of a file that then turns out to be in the store
    /// already would be written for nothing.
    static let threshold: Int64 = 16 << 20
}

/// A copy in progress: `finish` waits for it.
final class PendingCopy: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written by the copying thread before it signals `done`, read after the wait.
    private var outcome: EarlyCopy?

    /// Starts copying `source` (open; closed when the copy ends) into a new staging file of
    /// `store`, if its signature is still `signature` (the status the scan planned with).
    init(copying source: Int32, signature: LocalSignature, into store: ContentStore, path: String) {
        Thread { [self] in
            defer {
                close(source)
                done.signal()
            }
            outcome = Self.copy(source, signature: signature, into: store, path: path)
        }.start()
    }

    /// The copy, or nil when it could not be made or the file changed while it was.
    func finish() -> EarlyCopy? {
        done.wait()
        return outcome
    }

    private static func copy(_ source: Int32, signature: LocalSignature, into store: ContentStore, path: String) -> EarlyCopy? {
        // On a mirror with no room for it the upload pauses the pass; no copy to undo first.
        guard ContentStore.signature(source) == signature, (try? DiskRoom.check(for: source, size: signature.size, in: store.layout.root)) != nil
        else { return nil }
        let staging = store.newStagingPath()
        do {
            let copied = try DurableFile.write(staging, mode: 0o444, sync: false, makingFolder: true) { fd throws(SyncError) in
                try ContentStore.earlyCopy(from: source, to: fd, length: signature.size, path: path, destinationPath: staging)
            }
            guard copied, ContentStore.signature(source) == signature else {
                unlink(staging)
                return nil
            }
            return EarlyCopy(staging: staging, signature: signature)
        } catch {
            return nil  // (the write removed its partial file) the upload copies as before
        }
    }
}

extension ContentStore {
    /// Starts an `EarlyCopy` of the file `relative` below `folder`, opened through no
    /// symlink; nil if it cannot be opened.
    func startEarlyCopy(of relative: RawPath, beneath folder: RawPath, signature: LocalSignature) -> PendingCopy? {
        let source = folder.withCString { root in relative.withCString { ubq_open_beneath_for_reading(root, $0, O_RDONLY | O_NONBLOCK) } }
        guard source >= 0 else { return nil }
        return PendingCopy(copying: source, signature: signature, into: self, path: folder.appending(relative).readable)
    }
}

/// What a scan needs to copy files early: the store, and which files are worth it.
struct EarlyCopier {
    let store: ContentStore
    /// Whether a file of `size` at `path` (a sync path) is likely content the store lacks.
    /// A device joining a mirror that holds its files already hashes each of them, and an
    /// early copy of each would be written only to be thrown away.
    let isLikelyNew: (_ path: String, _ size: Int64) -> Bool
    /// Where small files' copies go.
    private let folders: StagingFolders

    init(store: ContentStore, isLikelyNew: @escaping (_ path: String, _ size: Int64) -> Bool) {
        self.store = store
        self.isLikelyNew = isLikelyNew
        folders = StagingFolders(store: store)
    }

    /// A copier for `container`: a file is likely new unless some version of its path the
    /// logs know has its size.
    init(store: ContentStore, container: ContainerSync) {
        self.init(store: store) { path, size in
            !(container.histories[path]?.records.contains { $0.state?.sha256 != nil && $0.state?.size == size } ?? false)
        }
    }

    /// Where the hash of the file whose status the scan read as `signature` should copy it
    /// (a new staging file, `StagingFolders`), when it is small, likely new, and `vouched`;
    /// nil otherwise.
    func stagingForHash(_ path: String, signature: LocalSignature, vouched: Bool) -> String? {
        guard vouched, signature.size < ContentStore.kernelCopyThreshold, isLikelyNew(path, signature.size) else { return nil }
        return folders.next()
    }

    /// Removes the early copies no upload took, once the pass is over: `stagings` (those of
    /// large files, in `store/incoming/` itself, `PendingCopy`) and the small files' folders.
    func removeUnused(_ stagings: [String]) {
        for staging in stagings where Sys.parent(of: staging) == store.layout.incoming { unlink(staging) }
        folders.removeAll()
    }

    /// Starts a copy of the file whose status the scan read as `signature`, when it is
    /// large and likely new; nil otherwise.
    func start(_ relative: RawPath, path: String, beneath folder: RawPath, signature: LocalSignature) -> PendingCopy? {
        guard signature.size >= EarlyCopy.threshold, isLikelyNew(path, signature.size) else { return nil }
        return store.startEarlyCopy(of: relative, beneath: folder, signature: signature)
    }
}
