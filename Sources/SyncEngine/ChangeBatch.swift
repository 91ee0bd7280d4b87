import Foundation
import Glibc
import Synchronization
import SyncPlanning

/// Group commit for a pass's changes. Making each change durable on its own costs four
/// fsyncs (object, its folder, log line, database); a batch makes many durable together,
/// in the order that keeps every crash safe:
/// 1. the new objects are written to `store/incoming/` and synced;
/// 2. they are renamed into place and the folders they went into synced;
/// 3. the log lines naming them are appended, with one fsync;
/// 4. the folders that gained a folder (downloads) are synced, then the base rows and
///    journal lines are committed in one transaction.
/// A crash before 3 leaves unnamed objects (harmless); between 3 and 4, log lines whose
/// base was not recorded (the next pass adopts them: the same content is not a change).
///
/// Steps 1 and 2 of a batch run on a background thread while the pass goes on with the
/// next batch; steps 3 and 4 follow on the pass's thread at the next `flush()` (or in
/// `finish()`), in order. A first sync of 100,000 files waited 2.8-3.0 s of its 22-23 s
/// in `syncfs` before, on the pass's thread; it now takes 19.4-19.8 s (scratch
/// initial_waits2.py, this machine's disk, runs interleaved). A batch whose completion
/// fails takes the batch sealed after it down with it: its lines were numbered after the
/// ones that failed.
final class ChangeBatch {
    /// How many changes a batch holds by default: large enough that a first sync pays few
    /// batches' fixed costs (two `syncfs`, a log fsync, a transaction). A first sync of
    /// 100,000 files on a new ext4 (scratch hackloop2.sh, 6 interleaved rounds) took
    /// 8.44-9.11 s with 16,384, against 9.04-10.00 s with 4,096 (slower in each round; one
    /// first run took 13.55 s), 8.48-9.21 s with 32,768 (3 rounds), 10.51-10.83 s with
    /// 1,024 (3) and 9.95-10.98 s with one batch (3; nothing overlaps its objects'
    /// storing). Smaller passes make one batch anyway.
    static let defaultCapacity = 16_384
    /// How many changes (objects staged, or base rows) fill a batch.
    let capacity: Int
    let store: ContentStore
    let database: SyncDatabase
    let container: ContainerSync
    let faults: FaultInjection?
    /// What was added since the last `flush()`.
    private var open = Changes()
    /// The changes of the last `flush()`, their objects being made durable meanwhile.
    private var sealed: Sealed?
    /// The paths whose changes are durable, until the pass takes them (`takeDurable()`).
    private var durable: [String] = []
    private var writer: LogWriter
    private var nextSequence: UInt64
    /// The footprint of the scan's early copies that no batch has taken yet: a batch's
    /// durability counts them as its own (`BatchDurability`). A copy no upload takes (the
    /// store had the content, or the file changed) stays counted until the pass ends.
    private var earlyCopyFootprint: Int64
    /// Where the batch's new base rows go once durable, when a first sync writes its view
    /// as it goes.
    private let view: ViewStream?

    init(
        store: ContentStore, database: SyncDatabase, container: ContainerSync, capacity: Int = ChangeBatch.defaultCapacity,
        earlyCopyFootprint: Int64 = 0, view: ViewStream? = nil, faults: FaultInjection?
    ) throws {
        self.store = store
        self.capacity = capacity
        self.database = database
        self.container = container
        self.earlyCopyFootprint = earlyCopyFootprint
        self.view = view
        self.faults = faults
        writer = try container.logWriter()
        nextSequence = writer.nextSequence
    }

    deinit { abandon() }  // no background commit outlives its batch

    var isFull: Bool { open.commits.count >= capacity || open.staged.count >= capacity }

    /// The id of the next record this device appends.
    func nextID() -> VersionID {
        defer { nextSequence += 1 }
        return VersionID(device: writer.device, sequence: nextSequence)
    }

    func stage(_ object: StagedObject) { open.staged.append(object) }

    func record(_ record: VersionRecord, base: BaseCommit) {
        open.records.append(record)
        open.commits.append(base)
    }

    func commit(_ base: BaseCommit) { open.commits.append(base) }

    /// `folders` gained an entry for a change of this batch (a folder made in them): they
    /// are fsynced, all at once, before its base is recorded.
    func syncFolders(_ folders: [String]) { open.folders.formUnion(folders) }

    /// `path`'s action is done: its changes are durable once the batch it is in is.
    func finished(_ path: String) { open.done.append(path) }

    /// The paths whose changes became durable since the last call.
    func takeDurable() -> [String] {
        defer { durable = [] }
        return durable
    }

    /// Seals what was added so far and starts storing its objects in the background; then
    /// completes the changes sealed before (see the type's comment). On failure nothing of
    /// either counts: their records are dropped and numbering resumes where the log is.
    func flush() throws {
        let previous = sealed
        sealed = nil
        earlyCopyFootprint -= BatchDurability.footprint(of: open.staged.filter(\.isEarlyCopy).map(\.size))
        let objects =
            open.staged.isEmpty
            ? nil
            : ObjectCommit(
                open.staged, store: store, pendingFootprint: max(earlyCopyFootprint, 0), after: previous?.objects, faults: faults)
        let next = Sealed(changes: open, objects: objects)
        open = Changes()
        do {
            if let previous { try complete(previous) }
            sealed = next
        } catch {
            drop(previous)
            drop(next)
            throw error
        }
    }

    /// Makes everything added so far durable, before it returns.
    func finish() throws {
        try flush()
        guard let last = sealed else { return }
        sealed = nil
        do { try complete(last) } catch {
            drop(last)
            throw error
        }
    }

    /// Drops every change not durable yet, once the objects being stored are: for a pass
    /// that stops early. The next pass records the changes again, and finds the objects
    /// that were stored.
    func abandon() {
        drop(sealed)
        sealed = nil
        drop(Sealed(changes: open, objects: nil))
        open = Changes()
    }

    /// Forgets `batch`'s changes after its objects' thread is done, and removes the uploads
    /// it left in `store/incoming/`: on a full disk their space is what the next pass needs
    /// (the store's collection would remove them only a day later).
    private func drop(_ batch: Sealed?) {
        guard let batch else { return }
        try? batch.objects?.wait()
        for object in batch.changes.staged { unlink(object.staging) }  // gone once renamed in
        nextSequence = writer.nextSequence
    }

    private func complete(_ batch: Sealed) throws {
        if let objects = batch.objects {
            try objects.wait()
            try faults?.checkpoint("batch: objects stored, log not appended")
        }
        let changes = batch.changes
        if !changes.records.isEmpty {
            try container.appendOwn(changes.records, with: &writer, faults: faults)
            try faults?.checkpoint("batch: log appended, base not committed")
        }
        if !changes.folders.isEmpty { try ConcurrentSync.fsyncFolders(changes.folders.sorted(), faults: faults) }
        if !changes.commits.isEmpty {
            try database.commit(container: container.id, changes.commits)
            view?.write(changes.commits)
        }
        durable += changes.done
    }

    /// The changes of one batch.
    private struct Changes {
        var staged: [StagedObject] = []
        var records: [VersionRecord] = []
        var commits: [BaseCommit] = []
        var folders: Set<String> = []
        var done: [String] = []
    }

    /// Changes whose objects are being stored (nil: none to store).
    private struct Sealed {
        var changes: Changes
        var objects: ObjectCommit?
    }
}

/// `ContentStore.commit` of a batch's objects, on a thread of its own, once the batch
/// before it has stored its own (`after`), whatever came of that. Two at once contended:
/// a rename from `store/incoming/` into `store/objects/` takes the filesystem's rename
/// lock (any rename between folders does), and the one that waited for it spun. In a
/// first sync of 100,000 files (perf, a new ext4) that spinning took about 0.24 s of CPU
/// of the 2.1 s the renames took.
private final class ObjectCommit: Sendable {
    private let finished = DispatchGroup()
    private let failure = Mutex<SyncError?>(nil)

    init(_ objects: [StagedObject], store: ContentStore, pendingFootprint: Int64, after previous: ObjectCommit?, faults: FaultInjection?) {
        finished.enter()
        Thread { [self] in
            defer { finished.leave() }
            previous?.finished.wait()
            do throws(SyncError) { try store.commit(objects, pendingFootprint: pendingFootprint, faults: faults) } catch {
                failure.withLock { $0 = error }
            }
        }.start()
    }

    /// Waits until the objects are durable and in place, or throws why they are not.
    func wait() throws(SyncError) {
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// A base change waiting for its batch: the new base of `path` and its journal line.
struct BaseCommit {
    var path: String
    var row: BaseRow
    var action: String
    /// The version the base now holds at `path` (its journal line names it).
    var version: VersionID { row.entry.version }

    /// `path` is in sync at `version`, whose state the disk holds with `signature`.
    init(_ action: String, path: String, version: VersionID, state: EntryState?, signature: LocalSignature?) {
        self.path = path
        row = BaseRow(path: path, entry: BaseEntry(version: version, state: state), signature: signature)
        self.action = action
    }
}
