import Glibc
import SyncPlanning

/// Group commit for a pass's changes. Making each change durable on its own costs four
/// fsyncs (object, its folder, log line, database); a batch makes many durable together,
/// in the order that keeps every crash safe:
/// 1. the new objects are written to `store/incoming/` and synced;
/// 2. they are renamed into place and the folders they went into synced;
/// 3. the log lines naming them are appended, with one fsync;
/// 4. the base rows and journal lines are committed in one transaction.
/// A crash before 3 leaves unnamed objects (harmless); between 3 and 4, log lines whose
/// base was not recorded (the next pass adopts them: the same content is not a change).
final class ChangeBatch {
    /// Large enough that a first sync's batches reach `ContentStore.wholeFilesystemSyncFrom`.
    static let capacity = 4096
    let store: ContentStore
    let database: SyncDatabase
    let container: ContainerSync
    let faults: FaultInjection?
    private var staged: [StagedObject] = []
    private var records: [VersionRecord] = []
    private var commits: [BaseCommit] = []
    private var writer: LogWriter
    private var nextSequence: UInt64

    init(store: ContentStore, database: SyncDatabase, container: ContainerSync, faults: FaultInjection?) throws {
        self.store = store
        self.database = database
        self.container = container
        self.faults = faults
        writer = try container.logWriter()
        nextSequence = writer.nextSequence
    }

    var isFull: Bool { commits.count >= Self.capacity || staged.count >= Self.capacity }

    /// The id of the next record this device appends.
    func nextID() -> VersionID {
        defer { nextSequence += 1 }
        return VersionID(device: writer.device, sequence: nextSequence)
    }

    func stage(_ object: StagedObject) { staged.append(object) }

    func record(_ record: VersionRecord, base: BaseCommit) {
        records.append(record)
        commits.append(base)
    }

    func commit(_ base: BaseCommit) { commits.append(base) }

    /// Makes everything added so far durable (see the type's comment). On failure nothing
    /// of the batch counts: its records are dropped and numbering resumes where the log is.
    func flush() throws {
        defer {
            staged = []
            records = []
            commits = []
            nextSequence = writer.nextSequence
        }
        if !staged.isEmpty {
            try store.commit(staged)
            try faults?.checkpoint("batch: objects stored, log not appended")
        }
        if !records.isEmpty {
            try container.appendOwn(records, with: &writer, faults: faults)
            try faults?.checkpoint("batch: log appended, base not committed")
        }
        if !commits.isEmpty { try database.commit(container: container.id, commits) }
    }
}

/// A base change waiting for its batch: the new base of `path` and its journal line.
struct BaseCommit {
    var path: String
    var row: BaseRow
    var action: String
    var version: VersionID

    /// `path` is in sync at `version`, whose state the disk holds with `signature`.
    init(_ action: String, path: String, version: VersionID, state: EntryState?, signature: LocalSignature?) {
        self.path = path
        row = BaseRow(path: path, entry: BaseEntry(version: version, state: state), signature: signature)
        self.action = action
        self.version = version
    }
}
