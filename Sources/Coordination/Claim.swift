#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// The locks of one coordinated access, taken one by one in plan order. It never waits
/// itself: `advance()` takes what it can and says whether all is held, so the blocking
/// and the async forms share it and differ only in how they sleep between attempts.
final class Claim {
    let plan: LockPlan
    private let directory: Int32
    private let identity: HolderIdentity
    private let pool: DescriptorPool
    private var held: [LockFile] = []
    /// How many requests are done: locked, or skipped for a lock file that does not exist.
    private var done = 0
    /// The lock file of the request being waited for, kept open across attempts.
    private var pending: LockFile?
    /// Encoded holder records, one per (item, lock mode): most locks of a claim share one.
    private var records: [(item: ItemPath, exclusive: Bool, bytes: [UInt8])] = []
    /// The lock directory's device and inode, read when first needed (`EnclosingClaims`).
    private lazy var folderIdentity = HeldLockFile.folderIdentity(directory)

    /// How many of the plan's requests skip a missing lock file rather than create it, and
    /// how many of those are items' own locks (not intent locks on their folders).
    private let skippable: (requests: Int, items: Int)

    init(plan: LockPlan, directory: Int32, identity: HolderIdentity, pool: DescriptorPool) {
        self.plan = plan
        self.directory = directory
        self.identity = identity
        self.pool = pool
        skippable = (plan.requests.count { !$0.createsFile }, plan.requests.count { !$0.createsFile && $0.isItemLock })
    }

    var isComplete: Bool { done == plan.requests.count }

    /// The request being waited for, if any.
    var blockedRequest: LockRequest? { isComplete ? nil : plan.requests[done] }

    /// Takes as many locks as it can without waiting; `true` once every lock is held.
    func advance() throws(CoordinationError) -> Bool {
        var present: Set<LockName>?
        var listed = false
        while let request = blockedRequest {
            let file: LockFile
            if let pending {
                file = pending
            } else {
                if !request.createsFile {
                    if !listed { (present, listed) = (presentLockFiles(), true) }
                    if let present, !present.contains(request.name) {
                        done += 1  // no lock file: nobody holds a claim there
                        continue
                    }
                }
                do {
                    file = try LockFile(directory: directory, name: request.name, pool: pool, create: request.createsFile)
                } catch where error.rawValue == ENOENT && !request.createsFile && !LockFolder.isRemoved(directory) {
                    done += 1  // no lock file: nobody holds a claim there
                    continue
                } catch {
                    throw failure("open", error, request)
                }
            }
            pending = file
            do {
                guard try file.tryLock(
                    exclusive: request.exclusive, yieldsToWriters: request.isItemLock && !isHeldByEnclosingClaim(request.name),
                    preferredSlot: identity.preferredSlot())
                else { return false }
            } catch {
                throw failure("fcntl(F_OFD_SETLK)", error, request)
            }
            if try isPruned(file, request) { continue }
            // A reader that leaves no lock file behind leaves no holder record either (it
            // holds for microseconds; a page of tmpfs per record is what it avoids).
            if request.createsFile {
                do { try file.recordHolder(record(for: request)) } catch {
                    throw failure("pwrite", error, request)
                }
            }
            held.append(file)
            done += 1
            pending = nil
        }
        return true
    }

    /// The lock files in the directory now, when listing them is cheaper than opening the
    /// file of each request that skips a missing one (`LockListing`); nil otherwise.
    private func presentLockFiles() -> Set<LockName>? {
        guard skippable.items >= Self.listingFrom else { return nil }
        return LockListing.names(in: directory, atMost: skippable.requests * Self.entriesPerOpen)
    }

    /// From how many items a claim lists the directory. Not for one file: the folders on its
    /// way have lock files when anything below them was claimed lately, so a listing saves
    /// one failed `openat` and costs more (`coordination-bench`, one file 6 folders deep:
    /// 35-36 µs a claim with a listing, 31 µs without). For 64 files, 3.1-3.2 µs a file
    /// against 6.5-8.1 µs.
    static let listingFrom = 8
    /// How many entries a listing may go over for each `openat` it may save: a failed
    /// `openat` cost about 3 µs, a listed entry about 0.3 µs.
    static let entriesPerOpen = 8

    /// The lock files this claim holds, for the claims its accessor makes (`EnclosingClaims`).
    var heldLockFiles: Set<HeldLockFile> {
        guard let folder = folderIdentity else { return [] }
        return Set(held.map { HeldLockFile(folderDevice: folder.device, folderInode: folder.inode, name: $0.name) })
    }

    /// Whether a claim whose accessor runs this code holds `name` already: then a writer
    /// waiting for it cannot go first, and queueing behind it would deadlock.
    private func isHeldByEnclosingClaim(_ name: LockName) -> Bool {
        let enclosing = EnclosingClaims.held
        guard !enclosing.isEmpty, let folder = folderIdentity else { return false }
        return enclosing.contains(HeldLockFile(folderDevice: folder.device, folderInode: folder.inode, name: name))
    }

    /// A lock file pruned while we held its descriptor: drop it, so the next turn opens
    /// (and creates) the file that now has the name.
    private func isPruned(_ file: LockFile, _ request: LockRequest) throws(CoordinationError) -> Bool {
        let unlinked: Bool
        do { unlinked = try file.isUnlinked() } catch { throw failure("fstat", error, request) }
        if unlinked {
            file.discard()
            pending = nil
        }
        return unlinked
    }

    private func record(for request: LockRequest) -> [UInt8] {
        if let cached = records.first(where: { $0.exclusive == request.exclusive && $0.item == request.item }) {
            return cached.bytes
        }
        let bytes = identity.record(for: request).encoded(size: LockFile.recordSize)
        records.append((request.item, request.exclusive, bytes))
        return bytes
    }

    /// Who holds the lock this claim waits for, as far as they recorded it.
    func blockingHolders() -> [ClaimHolder] {
        guard let request = blockedRequest, let file = pending else { return [] }
        let records = (try? file.holders()) ?? []
        return records.filter { request.exclusive || $0.exclusive }.map(\.holder)
    }

    /// How many lock files this claim holds.
    var heldCount: Int { held.count }

    /// Whether a lock file this claim holds carries a move recorded at `nanoseconds` or
    /// later (a wall-clock time, as move records have). `path` names the claim in an error.
    func holdsMove(recordedSince nanoseconds: Int64, path: @autoclosure () -> String) throws(CoordinationError) -> Bool {
        for file in held {
            do {
                if let record = try file.readMove(), record.nanoseconds >= nanoseconds { return true }
            } catch {
                throw .syscall("pread", error, path: path(), detail: "lock file \(file.name)")
            }
        }
        return false
    }

    /// The open lock file of a held lock, to read or write its move record.
    func heldFile(named name: LockName) -> LockFile? {
        held.first { $0.name == name }
    }

    /// Releases every lock, in reverse order (the kernel releases them too if we die).
    func release() {
        pending = nil
        done = 0
        while !held.isEmpty { _ = held.removeLast() }
    }

    private func failure(_ call: String, _ error: Errno, _ request: LockRequest) -> CoordinationError {
        .syscall(call, error, path: ItemPath.display(request.item.bytes), detail: "lock file \(request.name)")
    }
}

/// Who this process is, for holder records: pid, program name, and a per-process counter
/// that spreads the holder slots of concurrent claims.
final class HolderIdentity: Sendable {
    let pid: Int32
    let command: [UInt8]
    private let counter = Atomic<Int>(0)

    init() {
        pid = getpid()
        let argument0 = CommandLine.arguments.first ?? "?"
        command = Array((argument0.split(separator: "/").last.map(String.init) ?? argument0).utf8)
    }

    func record(for request: LockRequest) -> HolderRecord {
        HolderRecord(
            pid: pid, exclusive: request.exclusive, access: request.itemAccess,
            sinceNanoseconds: Sys.clockNanoseconds(CLOCK_REALTIME), command: command, item: request.item.bytes)
    }

    func preferredSlot() -> Int {
        let next = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return (Int(pid) &+ next) % LockFile.preferredSlots
    }
}
