import Coordination
import Glibc
import RawPaths
import SyncPlanning

/// One file's content to upload: what `Executor.publish` stages into the store.
struct Upload {
    let path: String
    /// Where the file is, relative to the container folder (its raw name).
    let relative: RawPath
    let absolute: String
    /// The content the scan planned with: the upload is refused (and retried next pass) if
    /// the file no longer has it.
    let expected: ContentHashing.Result
    let scanned: LocalSignature?
    /// The copy the scan made while it hashed the file, if it is of the content to upload.
    let early: EarlyCopy?

    /// Nil unless `state` is a file's content (deletions, folders and links upload nothing).
    /// `relative`: where the file is when the scan did not see it (`LocalNames`).
    init?(_ path: String, state: EntryState?, local: LocalEntry?, relative: RawPath? = nil, in containerFolder: RawPath) {
        guard let state, let content = state.sha256 else { return nil }
        self.path = path
        self.relative = local?.rawPath ?? relative ?? RawPath(path)
        absolute = containerFolder.appending(self.relative).readable
        expected = ContentHashing.Result(sha256: content, size: state.size)
        scanned = local?.signature
        early = local?.state.sha256 == content ? local?.earlyCopy : nil
    }

    /// `folders`: rooted at the container folder.
    func stage(in store: ContentStore, through folders: FolderCursor) throws -> StagedObject? {
        try store.stage(relative, through: folders, expected: expected, scanned: scanned, early: early)
    }
}

extension Executor {
    /// How many files `stage(_:)` reads under one claim: few enough that an app saving one
    /// of them waits a few milliseconds at most.
    static let uploadsPerClaim = 64

    /// Stages several uploads under one coordinated read claim on all of them: a first
    /// sync's claims then cost one per few dozen files instead of one per file (a claim
    /// cost about as much as staging a small file). Stops at the first failure, whose
    /// outcome is kept for its `publish` to throw; the uploads after it get no outcome, and
    /// the first of them starts a new run when its turn comes. No outcome at all means the claim could not be
    /// taken: each upload of the run is then staged by its own `publish` (`PreparedRun`).
    func stage(_ uploads: [Upload]) -> [String: Result<StagedObject?, any Error>] {
        var outcomes: [String: Result<StagedObject?, any Error>] = [:]
        let folders = FolderCursor(root: containerFolder)
        _ = try? coordinator.read(uploads.map(\.absolute)) {
            for upload in uploads {
                let outcome = Result { try upload.stage(in: store, through: folders) }
                outcomes[upload.path] = outcome
                if case .failure = outcome { break }
            }
        }
        return outcomes
    }

    /// Removes what `stage(_:)` wrote for publishes that were not performed (the pass
    /// stopped early): nothing names these objects yet.
    func discard(_ outcomes: [String: Result<StagedObject?, any Error>]) {
        for case .success(let staged?) in outcomes.values { unlink(staged.staging) }
    }
}
