import Dispatch
import RawPaths
import Synchronization

/// The hashing of a scan's small files, done ahead of `LocalTree.add` on several threads
/// when there are many.
///
/// A first sync of 100,000 files spent about 1.3 s of its pass thread's 6.2 s reading and
/// hashing files (perf, tmpfs), while the second core ran the index's content reader,
/// which only takes idle time. Files above `EarlyCopy.threshold` are left to `add`: each
/// starts a copy in the kernel of its own while it is hashed.
enum ScanHashing {
    /// One file to hash: its path below the root, the size its status gave, whether to
    /// refuse it while a writer has it open, and where to copy it as it is read.
    struct Job: Sendable {
        var relative: RawPath
        var size: Int64
        var refusingWriters: Bool
        var staging: String?
    }

    /// A file's content, and the copy made of it (nil: none).
    struct Hashed {
        var content: ContentHashing.Result
        var copy: String?
    }

    /// What hashing one file gave, or why not (a partial copy was removed).
    typealias Outcome = Result<Hashed, SyncError>

    /// From how many files the hashing is spread over threads: below, it is over in a few
    /// milliseconds anyway.
    static let parallelFrom = 256
    /// Files hashed in a row by one thread, in path order: its `FolderCursor` keeps their
    /// folder open, and threads that are slowed (the second core is shared) take fewer.
    static let chunkSize = 128

    /// Hashes `jobs` below `root`; outcomes in the jobs' order.
    static func hash(_ jobs: [Job], beneath root: RawPath) -> [Outcome] {
        guard jobs.count >= parallelFrom else { return hashChunk(jobs[...], beneath: root) }
        let chunks = stride(from: 0, to: jobs.count, by: chunkSize).map { $0..<min($0 + chunkSize, jobs.count) }
        let outcomes = Mutex<[[Outcome]]>(Array(repeating: [], count: chunks.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { index in
            let done = hashChunk(jobs[chunks[index]], beneath: root)
            outcomes.withLock { $0[index] = done }
        }
        return outcomes.withLock { $0.flatMap { $0 } }
    }

    private static func hashChunk(_ jobs: ArraySlice<Job>, beneath root: RawPath) -> [Outcome] {
        let folders = FolderCursor(root: root)
        return jobs.map { job in Result { () throws(SyncError) in try hash(job, through: folders) } }
    }

    /// Hashes one file, and copies it if the job says where. The copy is only a head start
    /// for its upload: when it fails (a mirror with no room, or read-only), the file is
    /// hashed alone, and its upload meets the mirror's problem and says so, naming the
    /// file (a full disk pauses the pass: `SyncPass.execute`). Only a failure to read the
    /// file fails its hashing.
    static func hash(_ job: Job, through folders: FolderCursor) throws(SyncError) -> Hashed {
        func hash(copyingTo staging: String?) throws(SyncError) -> ContentHashing.Result {
            try ContentHashing.hash(job.relative, through: folders, refusingWriters: job.refusingWriters, copyingTo: staging, expectedSize: job.size)
        }
        do {
            return Hashed(content: try hash(copyingTo: job.staging), copy: job.staging)
        } catch where job.staging != nil {
            return Hashed(content: try hash(copyingTo: nil), copy: nil)
        }
    }
}
