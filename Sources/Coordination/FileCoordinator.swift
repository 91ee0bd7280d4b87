import Foundation
import Synchronization

/// Coordinates reads and writes of files and folders among threads and processes, as
/// `NSFileCoordinator` does on Apple platforms: readers share, a writer excludes readers and
/// writers, and a write on a folder excludes every access below it.
///
/// Claims are OFD locks on lock files in `lockDirectory` (the daemon passes
/// `$UBQ_RUNTIME_DIR/locks`), never on the documents, which editors replace by rename. Every
/// process that coordinates the same items must use the same lock directory. The kernel
/// drops a process's claims the moment it dies. Claims nest as long as they are compatible:
/// inside a read's accessor, reading the item (or a folder above it) again is fine, even
/// with a writer waiting (`EnclosingClaims`); asking for a conflicting claim on the same
/// item (a write inside a read) waits for itself: use the two-item forms instead.
///
/// - Naming: a path is canonicalized (see `ItemPath`) and its lock file is named by the
///   128-bit FNV-1a hash of its bytes (`LockName`).
/// - Hierarchy: an access locks its item's lock file (shared to read, exclusive to write)
///   and takes shared intent locks on every ancestor's, so a folder write waits for, and
///   holds off, every access below. A folder read does not exclude writes below it.
/// - Order: all locks of a call are merged and taken in ascending hash order (`LockPlan`),
///   so two coordinators never deadlock, whatever the order of the URLs.
/// - Waiting: `F_OFD_SETLK` polled with a backoff of 50 µs to 5 ms (`Session`), which makes
///   timeouts and `cancel()` plain checks between attempts. A waiting writer holds a
///   turnstile byte of its item's lock file, and new readers of that item queue behind it,
///   except those made inside an accessor whose claim already holds that lock file.
/// - Holders: each lock holder writes who it is next to the byte it locked (`LockFile`), so
///   a timeout names the pid, program, access and item of the conflicting claim.
///
/// One coordinator is meant to be shared (it is `Sendable`): it keeps up to 256 idle lock
/// file descriptors for reuse, and `cancel()` cancels all of its waiting calls.
public final class FileCoordinator: Sendable {
    /// The folder holding one lock file per claimed path.
    public let lockDirectory: URL
    /// The timeout of calls that pass none; `nil` waits until the claim is free or `cancel()`.
    public let defaultTimeout: Duration?
    /// Who tells the file presenters about this coordinator's accesses
    /// (the Ubiquity library's relay goes through ubqd); nil: locks only.
    public let relay: (any PresenterRelay)?

    private let folder: LockFolder
    private let identity = HolderIdentity()
    private let pool = DescriptorPool()
    private let cancellations = Atomic<UInt64>(0)
    private let blockedCalls = Atomic<Int>(0)

    /// Creates the lock directory (mode 0700) if needed and opens it.
    public init(lockDirectory: URL, timeout: Duration? = nil, relay: (any PresenterRelay)? = nil) throws(CoordinationError) {
        self.lockDirectory = lockDirectory
        defaultTimeout = timeout
        self.relay = relay
        folder = try LockFolder(path: lockDirectory.path)
    }

    /// The lock directory, made again if it was removed (`LockFolder`).
    var directory: Int32 {
        get throws(CoordinationError) { try folder.descriptor() }
    }

    var lockDirectoryDescriptor: Int32 {
        get throws(CoordinationError) { try directory }
    }

    /// Fails every call of this coordinator that is waiting for a claim now with
    /// `CoordinationError.Code.cancelled` (within one backoff step, at most 5 ms). Accessors
    /// already running are not interrupted; later calls are not affected.
    public func cancel() {
        cancellations.add(1, ordering: .sequentiallyConsistent)
    }

    var cancellationEpoch: UInt64 { cancellations.load(ordering: .sequentiallyConsistent) }

    /// How many calls of this coordinator have had to wait so far (tests wait on it).
    var blockedCallCount: Int { blockedCalls.load(ordering: .sequentiallyConsistent) }

    func noteBlockedCall() {
        blockedCalls.add(1, ordering: .sequentiallyConsistent)
    }

    func makeClaim(_ plan: LockPlan) throws(CoordinationError) -> Claim {
        Claim(plan: plan, directory: try directory, identity: identity, pool: pool)
    }

    /// Records that the item at `oldURL` now lives at `newURL`. Call it inside the accessor
    /// of a `.forMoving` write: a coordinated access that was waiting for `oldURL` then
    /// claims and receives `newURL` (if nothing is at `oldURL` any more).
    public func item(at oldURL: URL, didMoveTo newURL: URL) throws(CoordinationError) {
        let old = try ItemPath(url: oldURL, resolvingFinalLink: false)
        let new = try ItemPath(url: newURL, resolvingFinalLink: false)
        let record = MoveRecord(nanoseconds: Sys.clockNanoseconds(CLOCK_REALTIME), from: old.bytes, to: new.bytes)
        let name = LockName(path: old)
        let directory = try self.directory
        do {
            try LockFile(directory: directory, name: name).writeMove(record)
        } catch {
            throw .syscall("pwrite", error, path: old.description, detail: "lock file \(name)")
        }
    }

    /// Waits (blocking the thread) until every lock is held, then runs `body`. The relay
    /// hears of the access before the first attempt and of its end after the release.
    @available(*, noasync)
    func withClaim<T>(_ items: [RequestedItem], timeout: Duration?, _ body: ([URL]) throws -> T) throws -> T {
        try withClaim(items, timeout: timeout) { urls, _ in try body(urls) }
    }

    /// `withClaim`, whose body also gets the paths to use as bytes.
    func withClaim<T>(_ items: [RequestedItem], timeout: Duration?, _ body: ([URL], [[UInt8]]) throws -> T) throws -> T {
        let session = try Session(coordinator: self, items: items, timeout: timeout ?? defaultTimeout)
        let ticket = relay?.accessWillBeginBlocking(session.announcement)
        var outcome = AnnouncedAccess.Outcome(accessed: false, moves: [])
        defer { if let relay, let ticket { relay.accessDidEndBlocking(ticket, outcome) } }
        while true {
            switch try session.poll() {
            case .wait(let nanoseconds):
                if nanoseconds > 0 { Sys.sleep(nanoseconds: nanoseconds) }
            case .ready(let claim, let urls):
                let paths = session.paths
                let result = Result {
                    try EnclosingClaims.$held.withValue(EnclosingClaims.held.union(claim.heldLockFiles)) { try body(urls, paths) }
                }
                outcome = session.finish(claim, reporting: ticket != nil)
                return try result.get()
            }
        }
    }
}

// MARK: - Blocking forms

extension FileCoordinator {
    /// Runs `reader` while holding a shared claim on `url` (and intent claims on its
    /// ancestors). `reader` receives the URL to use: `url`, its symbolic link's target with
    /// `.resolvesSymbolicLink`, or where a coordinated move took the item while we waited.
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        readingItemAt url: URL, options: ReadingOptions = [], timeout: Duration? = nil,
        byAccessor reader: (URL) throws -> T
    ) throws -> T {
        try withClaim([RequestedItem(url: url, access: .reading(options))], timeout: timeout) { try reader($0[0]) }
    }

    /// Reads several items under one claim: a shared claim on each, taken together in the
    /// global order. Like Apple's `prepare(forReadingItemsAt:…)` for a batch, but one claim:
    /// the intent locks of the ancestors the items share are taken once, so reading the
    /// files of one folder costs about one claim rather than one per file. `reader`
    /// receives the URLs to use, in the order given.
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        readingItemsAt urls: [URL], options: ReadingOptions = [], timeout: Duration? = nil,
        byAccessor reader: ([URL]) throws -> T
    ) throws -> T {
        try withClaim(urls.map { RequestedItem(url: $0, access: .reading(options)) }, timeout: timeout, reader)
    }

    /// Runs `writer` while holding an exclusive claim on `url`; for a folder the claim
    /// excludes every access to anything below it.
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        writingItemAt url: URL, options: WritingOptions = [], timeout: Duration? = nil,
        byAccessor writer: (URL) throws -> T
    ) throws -> T {
        try withClaim([RequestedItem(url: url, access: .writing(options))], timeout: timeout) { try writer($0[0]) }
    }

    /// Writes several items under one claim: an exclusive claim on each, taken together in
    /// the global order (like `coordinate(readingItemsAt:…)`, for writes). Presenters of
    /// each item are told as for a single write. `writer` receives the URLs to use, in the
    /// order given.
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        writingItemsAt urls: [URL], options: WritingOptions = [], timeout: Duration? = nil,
        byAccessor writer: ([URL]) throws -> T
    ) throws -> T {
        try withClaim(urls.map { RequestedItem(url: $0, access: .writing(options)) }, timeout: timeout, writer)
    }

    /// `coordinate(readingItemAt:…)` for a path given as bytes: a name that is not UTF-8,
    /// which a URL on Linux cannot hold (Foundation puts U+FFFD in place of such bytes, so a
    /// claim through a URL would lock another name). `reader` receives the path to use, as
    /// bytes (where a coordinated move took the item while this waited, say); a relative
    /// path is taken from the working folder.
    @available(*, noasync, message: "it blocks the thread while it waits")
    @discardableResult
    public func coordinate<T>(
        readingItemAtPath path: [UInt8], options: ReadingOptions = [], timeout: Duration? = nil,
        byAccessor reader: ([UInt8]) throws -> T
    ) throws -> T {
        try withClaim([RequestedItem(rawPath: path, access: .reading(options))], timeout: timeout) { _, paths in try reader(paths[0]) }
    }

    /// `coordinate(writingItemAt:…)` for a path given as bytes (see
    /// `coordinate(readingItemAtPath:…)`).
    @available(*, noasync, message: "it blocks the thread while it waits")
    @discardableResult
    public func coordinate<T>(
        writingItemAtPath path: [UInt8], options: WritingOptions = [], timeout: Duration? = nil,
        byAccessor writer: ([UInt8]) throws -> T
    ) throws -> T {
        try withClaim([RequestedItem(rawPath: path, access: .writing(options))], timeout: timeout) { _, paths in try writer(paths[0]) }
    }

    /// Read-then-write: holds a shared claim on `readingURL` and an exclusive claim on
    /// `writingURL` at once (taken together, in the global order, so it cannot deadlock).
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        readingItemAt readingURL: URL, options readingOptions: ReadingOptions = [],
        writingItemAt writingURL: URL, options writingOptions: WritingOptions = [],
        timeout: Duration? = nil, byAccessor body: (URL, URL) throws -> T
    ) throws -> T {
        let items = [
            RequestedItem(url: readingURL, access: .reading(readingOptions)),
            RequestedItem(url: writingURL, access: .writing(writingOptions)),
        ]
        return try withClaim(items, timeout: timeout) { try body($0[0], $0[1]) }
    }

    /// Writes two items at once (a move, a copy over, an exchange): both exclusive claims
    /// are taken in the one global order, whatever the order of the arguments.
    @available(*, noasync, message: "it blocks the thread while it waits: use the byAsyncAccessor: form")
    @discardableResult
    public func coordinate<T>(
        writingItemAt url1: URL, options options1: WritingOptions = [],
        writingItemAt url2: URL, options options2: WritingOptions = [],
        timeout: Duration? = nil, byAccessor body: (URL, URL) throws -> T
    ) throws -> T {
        let items = [
            RequestedItem(url: url1, access: .writing(options1)),
            RequestedItem(url: url2, access: .writing(options2)),
        ]
        return try withClaim(items, timeout: timeout) { try body($0[0], $0[1]) }
    }
}
