import Foundation
import Synchronization

extension Document {
    /// Yields, while the document is open, each time its file gains an unresolved conflict
    /// version (another device changed it at the same time) or one is resolved or removed,
    /// here or on another device: the moment to call `updateConflictState()`, as UIDocument's
    /// state-changed notification is the moment to read `documentState`. Ends when the
    /// document closes. A stream made before `open()` hears everything from the open on.
    /// Nothing arrives without ubqd, or with sync off.
    ///
    /// ```swift
    /// for await _ in document.conflictChanges() {
    ///     let versions = await document.updateConflictState()
    ///     showConflictBanner(versions)
    /// }
    /// ```
    public func conflictChanges() -> AsyncStream<Void> {
        presenter.stream(of: .conflicts)
    }

    /// Yields, while the document is open, each time another process or device changed its
    /// file (NSFilePresenter's `presentedItemDidChange()`, through ubqd; the document's own
    /// saves are not told). A document used from an actor has reverted to the new contents
    /// by then if it had no unsaved changes, as UIDocument does: the moment to show them.
    /// Otherwise it is `inConflict` (if the file did change): the moment to decide.
    /// Ends when the document closes; like `conflictChanges()`, a stream made before
    /// `open()` hears everything from the open on.
    public func fileChanges() -> AsyncStream<Void> {
        presenter.stream(of: .file)
    }

    /// Yields each time `documentState` changed, as UIDocument's `stateChangedNotification`
    /// posts: a load or save began or ended (`editingDisabled`), a save failed
    /// (`savingError`, `inConflict`: an autosave's failure is told nowhere else), the
    /// document opened or closed. Ends once the document closed (after telling that); a
    /// stream made before `open()` hears everything from the open on.
    public func stateChanges() -> AsyncStream<Void> {
        presenter.stream(of: .state)
    }

    /// Yields, while the document is open, each time another program or device moved or
    /// renamed its file: `fileURL` already says where it is, and the next save goes there
    /// (the moment to show the new name). Ends when the document closes.
    public func moves() -> AsyncStream<Void> {
        presenter.stream(of: .location)
    }
}

/// The presenter a document registers for its file while it is open, to hear of changes
/// made elsewhere (`presentedItemDidChange()`), of conflict versions
/// (`presentedItemDidGain(_:)`, `presentedItemDidResolveConflict(_:)`,
/// `presentedItemDidLose(_:)`) and of moves (`presentedItemDidMove(to:)`, which it
/// follows); it hands each to the document's streams. Registering and removing it run in
/// the background, one after the other. For a document used from an actor, it also saves
/// the document's unsaved changes when another program is about to read the file
/// (`savePresentedItemChanges`), and reverts it to a change made elsewhere before telling
/// the streams (`DocumentPresenter.Owner`).
final class DocumentPresenter: FilePresenter {
    /// What the document does for requests that come from elsewhere, run on the actor it
    /// was opened from. Nil for a document opened from no actor: nothing may touch it then.
    struct Owner: Sendable {
        /// Saves unsaved changes (`Document.saveChanges()`); returns the save's error.
        let save: @Sendable () async -> (any Error)?
        /// Reverts to the file on disk, if there are no unsaved changes.
        let revert: @Sendable () async -> Void
    }

    /// What a stream hears of.
    enum Topic {
        case conflicts, file, location, state
    }

    let presentedItemOperationQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    private struct State {
        var url: URL?
        var streams: [UUID: (topic: Topic, continuation: AsyncStream<Void>.Continuation)] = [:]
        /// Where the presenter is registered (or being registered): its removal goes there,
        /// whatever the environment says by then.
        var connection: PresenterConnection?
        /// The last registration or removal asked for: the next waits for it.
        var last: Task<Void, Never>?
        var owner: Owner?
        /// The last change handed to the owner: the next waits for it, so that reverts
        /// and notices keep the order of the changes.
        var lastChange: Task<Void, Never>?
        /// The version of the file the document last read or wrote (`Document.knownVersion`).
        var knownVersion: AtomicFile.Signature?
        /// The version of the file the last change told was found at.
        var lastToldVersion: AtomicFile.Signature?
    }

    private let state = Mutex(State())

    var presentedItemURL: URL? { state.withLock { $0.url } }

    /// The id ubqd knows this presenter by, once registered: the document's own accesses are
    /// made for it.
    var registeredID: String? { state.withLock { $0.connection }?.id(of: self) }

    /// A stream of the notices of `topic` from now on, until nothing is presented any more.
    func stream(of topic: Topic) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { $0.streams[id] = (topic, continuation) }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.streams.removeValue(forKey: id) } }
        return stream
    }

    /// Presents `url` (registered with the ubqd `environment` names), or presents nothing
    /// (nil: the document closed, and its streams end).
    func present(_ url: URL?, environment: [String: String]) {
        let named = url == nil ? nil : SharedPresenterConnection.connection(environment: environment)
        let ended = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            let old = state.connection
            let new = url == nil ? nil : named ?? old
            state.url = url
            state.connection = new
            state.lastToldVersion = nil
            if old != nil || new != nil {
                let previous = state.last
                state.last = Task { [self] in
                    await previous?.value
                    if let old, old !== new { await old.remove(self) }
                    if let new { await new.add(self) }
                }
            }
            guard url == nil else { return [] }
            defer { state.streams = [:] }
            return state.streams.values.map(\.continuation)
        }
        for continuation in ended { continuation.finish() }
    }

    /// Sets what the document does for requests from elsewhere (`Owner`; nil: nothing).
    func setOwner(_ owner: Owner?) {
        state.withLock { $0.owner = owner }
    }

    /// Another program is about to read the file (or merge into it): the document's unsaved
    /// changes are saved first, as UIDocument's are, so that it reads what the user sees.
    func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard let owner = state.withLock({ $0.owner }) else { return completionHandler(nil) }
        Task { completionHandler(await owner.save()) }
    }

    /// Records the version of the file the document has: a notice of that very version is
    /// not news (`presentedItemDidChange()`).
    func setKnownVersion(_ version: AtomicFile.Signature?) {
        state.withLock { $0.knownVersion = version }
    }

    /// The streams hear of the change once the document has reverted to it (if it could),
    /// unless it is no news (`isNews()`).
    func presentedItemDidChange() {
        guard isNews() else { return }
        let handed = state.withLock { state -> Bool in
            guard let owner = state.owner else { return false }
            let previous = state.lastChange
            state.lastChange = Task { [self] in
                await previous?.value
                await owner.revert()
                tell(.file)
            }
            return true
        }
        if !handed { tell(.file) }
    }

    /// Whether a change notice tells of a version of the file the document has not heard
    /// of: neither the one it last read or wrote, nor the one the last notice found. ubqd
    /// tells what its watcher saw, later: the watcher may see a file's creation only after
    /// the document opened it, and a notice may arrive once the next change is on disk, so
    /// that its own notice finds nothing new. UIDocument, likewise, reverts only when the
    /// file's modification date moved; a change of mode or owner alone is no news to a
    /// document either.
    private func isNews() -> Bool {
        // The look at the disk is made outside the lock: `fileURL` waits on it.
        guard let url = state.withLock({ $0.url }), let version = (try? AtomicFile.signature(url.path)) ?? nil else { return true }
        return state.withLock { state in
            guard version != state.knownVersion && version != state.lastToldVersion else { return false }
            state.lastToldVersion = version
            return true
        }
    }

    /// Follows the file while the document is open (a closed document stays where it was).
    func presentedItemDidMove(to newURL: URL) {
        let followed = state.withLock { state in
            guard state.url != nil else { return false }
            state.url = newURL.standardizedFileURL
            return true
        }
        if followed { tell(.location) }
    }
    func presentedItemDidGain(_ version: FileVersion) { tell(.conflicts) }
    func presentedItemDidResolveConflict(_ version: FileVersion) { tell(.conflicts) }
    func presentedItemDidLose(_ version: FileVersion) { tell(.conflicts) }

    /// Tells the streams that the document's state changed (`Document.stateChanges()`).
    func stateChanged() { tell(.state) }

    private func tell(_ topic: Topic) {
        let listening = state.withLock { $0.streams.values.filter { $0.topic == topic }.map(\.continuation) }
        for continuation in listening { continuation.yield() }
    }
}
