import DaemonClient
import Foundation

/// A document stored in one file, modelled on UIDocument: `open()`, `save(to:for:)`,
/// `close()`, `revert(toContentsOf:)` and a `documentState`. Subclasses give the content
/// by overriding `contents(forType:)` and `load(fromContents:ofType:)`.
///
/// Every read happens under a coordinated read claim and every save under a coordinated
/// write claim with `.forReplacing`, so `ubqd`, `ubq coordinate` and other apps never see
/// half a save. A save is atomic and durable (`AtomicFile`): one that fails sets
/// `savingError`, throws, and leaves the old file as it was.
///
/// A save for overwriting refuses to replace a file that changed on disk since this document
/// read or wrote it (another process saved in between): it throws `changedOnDisk` and sets
/// `inConflict`; `revert(toContentsOf:)` loads the other version and clears it (as does a
/// save that succeeds: a save to another file, or after the file was deleted).
///
/// As UIDocument's, `inConflict` is also set while the file has unresolved conflict versions
/// (two devices changed it at once): `open()` and `revert(toContentsOf:)` ask ubqd, and so
/// does `updateConflictState()`, once the app has resolved them (`FileVersion`). While the
/// document is open, it presents its file, and hears from ubqd of conflict versions gained
/// and resolved (`conflictChanges()`: when to ask again) and of changes made elsewhere
/// (`fileChanges()`). It follows its file when another program or device
/// moves or renames it, as UIDocument's `presentedItemDidMove(to:)` does: `fileURL` says
/// where the file is now, and the next save goes there.
///
/// The saveless model, as UIDocument's, for a document used from an actor (the main actor,
/// or any other): an edit (`updateChangeCount(.done)`) is saved by itself `autosaveDelay`
/// later (`autosave()`); unsaved changes are saved before another program reads the file
/// under coordination (`ubq coordinate --read`, another app's `Document`, ubqd's sync
/// uploading it); and a change made elsewhere is loaded by itself when there are no
/// unsaved changes (`fileChanges()` then yields). A save made by itself never writes back a
/// file deleted elsewhere since it was read (`changedOnDisk`). Loads and saves run one at a
/// time, whoever starts them. These run on the actor the document was opened from (by
/// `open()`, or a revert or save of a closed document; from no actor: none), which it
/// belongs to until it closes: use it from that actor only, as UIDocument from the main
/// actor. A document used from no actor leaves them to the app. Blocking that actor (a
/// blocking `coordinate`, `waitUntilExit`) keeps another program's read waiting up to 5 s,
/// after which it reads the file without the unsaved changes, as NSFileCoordinator's would.
///
/// Isolation: like UIDocument, which lives on the main actor, a document belongs to one
/// isolation domain. It is not `Sendable`; its methods run on the caller's actor
/// (`#isolation`) and wait for claims without blocking a thread. The file I/O itself runs
/// inline, as a handful of system calls.
open class Document {
    /// The state flags of UIDocument.State (an open document with nothing to report is `normal`, `[]`).
    public struct State: OptionSet, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let normal: State = []
        /// Not open (before `open()`, after `close()`).
        public static let closed = State(rawValue: 1 << 0)
        /// The file changed on disk under the document (revert to see it), or has unresolved
        /// conflict versions (`updateConflictState()`).
        public static let inConflict = State(rawValue: 1 << 1)
        /// The last save failed; the file on disk is the previous version.
        public static let savingError = State(rawValue: 1 << 2)
        /// A load or save is in progress: do not edit now.
        public static let editingDisabled = State(rawValue: 1 << 3)

        public var description: String {
            let names = [(State.closed, "closed"), (.inConflict, "inConflict"), (.savingError, "savingError"),
                         (.editingDisabled, "editingDisabled")].filter { contains($0.0) }.map(\.1)
            return names.isEmpty ? "normal" : names.joined(separator: ", ")
        }
    }

    /// What a save does, as UIDocument.SaveOperation.
    public enum SaveOperation: Sendable {
        /// Writes a new file; fails with `fileExists` if one is already there.
        case forCreating
        /// Replaces the file (or writes it if it is missing).
        case forOverwriting
    }

    /// How an edit changes the count of unsaved changes, as UIDocument.ChangeKind.
    public enum ChangeKind: Sendable {
        case done, undone, cleared
    }

    /// Where the document's file is. While the document is open, a move or rename of the
    /// file by another program or device (as ubqd tells it) changes it; `moves()` yields then.
    public var fileURL: URL { presenter.presentedItemURL ?? location }
    /// Where this document last opened, reverted or saved the file (`fileURL` while closed).
    private var location: URL
    public private(set) var documentState: State = .closed {
        didSet { if documentState != oldValue { presenter.stateChanged() } }
    }
    /// When the file was last read or written by this document.
    public private(set) var fileModificationDate: Date?
    public let coordinator: FileCoordinator
    /// How long after an edit (`updateChangeCount(.done)`) the document saves it by itself
    /// (`autosave()`), if used from an actor; nil: it saves only when told, at `close()`, and
    /// before another program reads the file. UIDocument saves "periodically"; each save is a
    /// version in the sync history.
    public var autosaveDelay: Duration? = .seconds(10)
    private var changeCount = 0
    /// How many times `updateChangeCount(.cleared)` was called: a save that saw none during
    /// its wait takes its edits off the count, one that did leaves the count as cleared.
    private var clears = 0
    /// A load is under way: a save asked for meanwhile by another program has nothing to add.
    private(set) var loading = false
    /// The version on disk this document last read or wrote: a save for overwriting checks it.
    private var knownVersion: AtomicFile.Signature? {
        didSet { presenter.setKnownVersion(knownVersion) }
    }
    /// The file changed on disk since this document last read or wrote it, as a refused save
    /// (`changedOnDisk`) or an automatic revert that kept unsaved changes found: `inConflict`
    /// until a revert or a save.
    private var diskChanged = false
    /// The file had unresolved conflict versions when ubqd was last asked: `inConflict` too.
    private var hasConflictVersions = false
    /// Counts the files the document was made to present, and its closes: an answer of ubqd
    /// about conflict versions asked for before one of them is about another file.
    private var fileGeneration = 0
    /// The writer; tests swap in one whose system calls fail.
    var fileWriter = AtomicFile()
    /// Where to find ubqd, to ask for the file's conflict versions: the environment the
    /// settings resolve from (`UbiquityContainer`).
    public var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Presents the file while the document is open, for `conflictChanges()` and `fileChanges()`.
    let presenter = DocumentPresenter()
    /// Loads and saves, one at a time.
    let operations = OneAtATime()
    /// The actor the document was opened from, until it closes: where autosaves and the
    /// requests of other programs run (`Document+Autosave`).
    weak var owner: (any Actor)?
    /// The autosave waiting for its time, if an edit scheduled one.
    var autosaveTask: Task<Void, Never>?

    public init(fileURL: URL, coordinator: FileCoordinator) {
        self.location = fileURL.standardizedFileURL
        self.coordinator = coordinator
    }

    deinit {
        autosaveTask?.cancel()
        presenter.present(nil, environment: environment)
    }

    /// Whether edits were made (`updateChangeCount(.done)`) since the last load or save.
    public var hasUnsavedChanges: Bool { changeCount != 0 }

    /// The type name passed to `contents(forType:)` and `load(fromContents:ofType:)`: a UTI.
    open var fileType: String { "public.data" }

    /// Records an edit, so that `close()` saves it, and the autosave `autosaveDelay` later.
    public func updateChangeCount(_ change: ChangeKind) {
        switch change {
        case .done: changeCount += 1
        case .undone: changeCount -= 1
        case .cleared:
            changeCount = 0
            clears += 1
        }
        if hasUnsavedChanges { scheduleAutosave() }
    }

    // MARK: Subclass points

    /// The bytes to save. Subclasses override it; the default throws.
    open func contents(forType typeName: String) throws -> Data {
        throw DocumentError(
            code: .contentsInvalid, message: "\(type(of: self)) does not override contents(forType:)", path: fileURL.path)
    }

    /// Replaces the document's model with what `contents` holds. Subclasses override it.
    open func load(fromContents contents: Data, ofType typeName: String) throws {
        throw DocumentError(
            code: .contentsInvalid, message: "\(type(of: self)) does not override load(fromContents:ofType:)",
            path: fileURL.path)
    }

    // MARK: Life cycle

    /// Reads the file under a coordinated read claim and loads it. Throws `fileNotFound` when
    /// there is no file (save for creating makes one) and `invalidState` when already open.
    public func open(isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        try await operations.run { () async throws(DocumentError) in
            guard documentState.contains(.closed) else {
                throw DocumentError(code: .invalidState, message: "\(fileURL.path) is already open: close it first, or revert", path: fileURL.path)
            }
            try await read(fileURL, step: "opening")
            documentState = .normal
            adopt(isolation)
            present(location)
        }
        await updateConflictState()
    }

    /// Discards the model and unsaved edits, and loads `url` (which becomes `fileURL`).
    /// Clears `savingError`, and `inConflict` unless the file has conflict versions. On
    /// failure the document is unchanged.
    public func revert(toContentsOf url: URL, isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        try await reload(url, discardingEdits: true)
    }

    /// The revert behind `revert(toContentsOf:)`, and the one made by itself after a change
    /// elsewhere (`url` nil: wherever the file is when its turn comes). Unless
    /// `discardingEdits`, it loads nothing into a closed document or one with unsaved
    /// changes, then or once the file is read (an edit may come while the read waits for its
    /// claim); if the file changed, the document is then `inConflict`, and its next save for
    /// overwriting is refused while the file is there.
    func reload(_ url: URL?, discardingEdits: Bool, isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        let loaded = try await operations.run { () async throws(DocumentError) -> Bool in
            guard !documentState.contains(.closed) || discardingEdits else { return false }
            let current = fileURL  // where the presenter followed the file, if it moved
            let target = (url ?? current).standardizedFileURL
            guard discardingEdits || !hasUnsavedChanges,
                try await read(target, step: "reverting to", keepingEdits: !discardingEdits)
            else {
                noteChangeOnDisk(target)
                return false
            }
            let wasClosed = documentState.contains(.closed)
            if target != current { hasConflictVersions = false }  // another file's: ubqd is asked next
            documentState.subtract([.closed, .savingError])
            setConflictFlag()
            if wasClosed { adopt(isolation) }
            present(target)
            return true
        }
        if loaded { await updateConflictState() }
    }

    /// Asks ubqd for the file's unresolved conflict versions, and sets `inConflict` if it has
    /// any, or clears it if it has none (and the file did not change on disk under the
    /// document). Returns them: empty without ubqd, without sync, or for a file outside the
    /// containers. A closed document (by the time ubqd answered) stays `closed` only.
    @discardableResult
    public func updateConflictState(isolation: isolated (any Actor)? = #isolation) async -> [FileVersion] {
        let (generation, asked) = (fileGeneration, fileURL)
        let conflicts = (try? await FileVersion.unresolvedConflictVersionsOfItem(at: asked, environment: environment, timeout: .seconds(5))) ?? []
        // About a file the document no longer presents (another file, a move it followed):
        // the query for that one decides.
        guard !documentState.contains(.closed), generation == fileGeneration, asked == fileURL else { return conflicts }
        hasConflictVersions = !conflicts.isEmpty
        setConflictFlag()
        return conflicts
    }

    /// `inConflict` while the file has conflict versions or changed on disk under the
    /// document; never on a closed document.
    private func setConflictFlag() {
        if (hasConflictVersions || diskChanged) && !documentState.contains(.closed) {
            documentState.insert(.inConflict)
        } else {
            documentState.remove(.inConflict)
        }
    }

    /// An automatic revert kept unsaved changes: if the file is no longer the version the
    /// document read or wrote (changed, or deleted), the document is `inConflict`.
    private func noteChangeOnDisk(_ url: URL) {
        guard !documentState.contains(.closed), ((try? AtomicFile.signature(url.path)) ?? nil) != knownVersion else { return }
        diskChanged = true
        setConflictFlag()
    }

    /// Writes the document to `url` (which becomes `fileURL`) under a coordinated write claim
    /// with `.forReplacing`. On success the document is open and has no unsaved changes; on
    /// failure it gains `savingError` (or `inConflict`), and the file on disk is the old one.
    public func save(to url: URL, for operation: SaveOperation, isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        let moved = try await operations.run { () async throws(DocumentError) in try await write(to: url, for: operation) }
        if moved { await updateConflictState() }  // the file it now presents may have some
    }

    /// Saves unsaved changes by itself (`autosave()`, another program's read): nothing while
    /// closed or without unsaved changes (a save just before may have taken them), and not
    /// over a file deleted since it was read.
    func saveChanges(isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        let moved = try await operations.run { () async throws(DocumentError) -> Bool in
            guard hasUnsavedChanges, !documentState.contains(.closed) else { return false }
            return try await write(to: fileURL, for: .forOverwriting, byItself: true)
        }
        if moved { await updateConflictState() }  // the file moved while the save waited
    }

    /// Saves unsaved changes (for overwriting), then closes, as one operation: no autosave
    /// comes between. If that save fails, the document stays open with `savingError` (or
    /// `inConflict`, refused as `changedOnDisk`) and the error is thrown: nothing is lost.
    /// Unlike a save made by itself, it writes the edits even where the file was deleted
    /// elsewhere since it was read (the file comes back, with them): the app closing a
    /// document with unsaved changes keeps them.
    public func close(isolation: isolated (any Actor)? = #isolation) async throws(DocumentError) {
        try await operations.run { () async throws(DocumentError) in
            // An edit made while the save waited for its claim is saved too.
            while hasUnsavedChanges && !documentState.contains(.closed) {
                try await write(to: fileURL, for: .forOverwriting)
            }
            autosaveTask?.cancel()
            autosaveTask = nil
            documentState = .closed
            knownVersion = nil
            hasConflictVersions = false
            fileGeneration += 1
            owner = nil  // reopened from no actor, it does nothing by itself
            presenter.setOwner(nil)
            location = fileURL  // where the file was moved to, if it was
            presenter.present(nil, environment: environment)
        }
    }

    // MARK: Steps

    /// The save behind `save(to:for:)`, `saveChanges()` and `close()`; a save made
    /// `byItself` does not write back a file deleted since it was read. True when the
    /// document now presents another file (or was closed).
    @discardableResult
    private func write(
        to url: URL, for operation: SaveOperation, byItself: Bool = false, isolation: isolated (any Actor)? = #isolation
    ) async throws(DocumentError) -> Bool {
        let target = url.standardizedFileURL
        let sameFile = target == fileURL && !documentState.contains(.closed)
        documentState.insert(.editingDisabled)
        defer { documentState.remove(.editingDisabled) }
        do {
            let data = try contentsToSave(target)
            let (saved, clearsBefore) = (changeCount, clears)  // edits made while the save is under way stay unsaved
            let expected = sameFile ? knownVersion : nil
            let written = try await coordinated(target, step: "saving") { [fileWriter] path throws(DocumentError) in
                try Self.check(path, for: operation, expecting: expected, byItself: byItself)
                try fileWriter.replace(path, with: data)
                return try AtomicFile.signature(path)
            }
            knownVersion = written
            let wasClosed = documentState.contains(.closed)
            let moved = fileURL != target || wasClosed
            fileModificationDate = written?.modificationDate ?? Date()
            if clears == clearsBefore { changeCount -= saved }
            documentState.subtract([.closed, .savingError])
            diskChanged = false  // this version is the one on disk now
            if moved { hasConflictVersions = false }  // another file's: the caller asks ubqd next
            setConflictFlag()
            if wasClosed { adopt(isolation) }
            if moved { present(target) }
            return moved
        } catch {
            if error.code == .changedOnDisk {
                diskChanged = true
                setConflictFlag()
            } else {
                documentState.insert(.savingError)
            }
            throw error
        }
    }

    /// Makes `url` the document's file (from `open()`, a revert, or a save to another file),
    /// and presents it, for `conflictChanges()`, `fileChanges()` and `moves()`. In the
    /// background: ubqd may be slow or away, and the document must not wait for it.
    private func present(_ url: URL) {
        location = url
        fileGeneration += 1
        presenter.present(url, environment: environment)
    }

    /// Reads and loads `url`; unless `keepingEdits` finds unsaved changes once the file is
    /// read, and loads nothing (false).
    @discardableResult
    private func read(
        _ url: URL, step: String, keepingEdits: Bool = false, isolation: isolated (any Actor)? = #isolation
    ) async throws(DocumentError) -> Bool {
        documentState.insert(.editingDisabled)
        loading = true
        defer {
            documentState.remove(.editingDisabled)
            loading = false
        }
        let (data, signature) = try await coordinated(url, step: step, reading: true) { path throws(DocumentError) in
            try AtomicFile.read(path)
        }
        if keepingEdits && (hasUnsavedChanges || documentState.contains(.closed)) { return false }
        do {
            try load(fromContents: data, ofType: fileType)
        } catch {
            throw (error as? DocumentError) ?? .contents(error, path: url.path, step: "loading")
        }
        knownVersion = signature
        fileModificationDate = signature.modificationDate
        changeCount = 0
        diskChanged = false
        return true
    }

    private func contentsToSave(_ url: URL) throws(DocumentError) -> Data {
        do {
            return try contents(forType: fileType)
        } catch {
            throw (error as? DocumentError) ?? .contents(error, path: url.path, step: "encoding")
        }
    }

    private static func check(
        _ path: String, for operation: SaveOperation, expecting known: AtomicFile.Signature?, byItself: Bool
    ) throws(DocumentError) {
        let current = try AtomicFile.signature(path)
        switch operation {
        case .forOverwriting where byItself && known != nil && current == nil:
            throw DocumentError(
                code: .changedOnDisk,
                message: "not saving \(path) by itself: another program or device deleted it since it was read; save it (or close the document) to keep the edits there",
                path: path)
        case .forCreating where current != nil:
            throw DocumentError(
                code: .fileExists, message: "cannot create \(path): a file is already there (open it, or save for overwriting)",
                path: path)
        case .forOverwriting where known != nil && current != nil && current != known:
            throw DocumentError(
                code: .changedOnDisk,
                message: "not saving \(path): another program changed it since it was read; revert to that version and redo the edit",
                path: path)
        default: return
        }
    }

    /// Runs `body` with the path under a coordinated claim: shared to read, exclusive with
    /// `.forReplacing` to write. Coordination failures become `coordinationFailed`. The
    /// access is made for the document's presenter: it does not hear of it, the process's
    /// other presenters do (another document on the same file).
    private func coordinated<T: Sendable>(
        _ url: URL, step: String, reading: Bool = false, isolation: isolated (any Actor)? = #isolation,
        _ body: (String) throws(DocumentError) -> T
    ) async throws(DocumentError) -> T {
        do {
            return try await DaemonPresenterRelay.$actingPresenter.withValue(presenter.registeredID) {
                if reading {
                    return try await coordinator.coordinate(readingItemAt: url, isolation: isolation, byAsyncAccessor: { url in
                        try body(url.path)
                    })
                }
                return try await coordinator.coordinate(
                    writingItemAt: url, options: .forReplacing, isolation: isolation, byAsyncAccessor: { url in try body(url.path) })
            }
        } catch let error as DocumentError {
            throw error
        } catch let error as CoordinationError {
            throw .coordination(error, path: url.path, step: step)
        } catch {
            throw DocumentError(code: .coordinationFailed, message: "\(step) \(url.path): \(error)", path: url.path)
        }
    }
}
