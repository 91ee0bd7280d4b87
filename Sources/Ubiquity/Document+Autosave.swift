import Foundation

/// The saveless model (UIDocument's): what a document does by itself, on the actor it is
/// used from (`owner`). A document used from no actor does none of it: nothing may touch it
/// from elsewhere then.
extension Document {
    /// Saves unsaved changes, for overwriting, as UIDocument's `autosave(completionHandler:)`
    /// does. It runs by itself `autosaveDelay` after an edit, and when another program is
    /// about to read the file. True when there was nothing to save or the save succeeded;
    /// false when it failed (`documentState` says how: `savingError`, or `inConflict` when
    /// another program changed or deleted the file since it was read: it is not written
    /// back; nothing is lost either way, the edits stay unsaved).
    @discardableResult
    public func autosave(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        do {
            try await saveChanges()
            return true
        } catch {
            return false
        }
    }

    /// Remembers the actor the document was opened from, and has its presenter run the
    /// requests of other programs there (`DocumentPresenter.Owner`); an autosave scheduled
    /// for another actor (a document reopened from elsewhere) is scheduled again here.
    func adopt(_ isolation: (any Actor)?) {
        guard let isolation, owner !== isolation else { return }
        owner = isolation
        autosaveTask?.cancel()  // scheduled on the old actor: again on this one
        autosaveTask = nil
        if hasUnsavedChanges { scheduleAutosave() }
        let reference = DocumentReference(self)
        presenter.setOwner(
            DocumentPresenter.Owner(
                save: { [weak isolation] in
                    guard let isolation else { return nil }
                    return await Self.saveChanges(of: reference, on: isolation)
                },
                revert: { [weak isolation] in
                    guard let isolation else { return }
                    await Self.revertToTheFile(reference, on: isolation)
                }))
    }

    /// Has the document autosave `autosaveDelay` (and at least `minimum`) from now, unless
    /// an autosave waits already.
    func scheduleAutosave(minimum: Duration = .zero) {
        guard autosaveTask == nil, let delay = autosaveDelay, let owner, !documentState.contains(.closed) else { return }
        let start = Self.autosaveStarter(DocumentReference(self), after: max(delay, minimum), on: owner)
        autosaveTask = Task(operation: start)
    }

    /// The autosave's task, made apart from the document (it may not cross to the task).
    private static func autosaveStarter(_ reference: DocumentReference, after delay: Duration, on owner: any Actor) -> @Sendable () async -> Void {
        { await autosave(reference, after: delay, on: owner) }
    }

    private static func autosave(_ reference: DocumentReference, after delay: Duration, on owner: isolated any Actor) async {
        try? await Task.sleep(for: delay)
        guard !Task.isCancelled, let document = reference.document, document.owner === owner else { return }
        document.autosaveTask = nil
        do {
            try await document.saveChanges()
        } catch {
            // Tried again (UIDocument keeps autosaving), unless the file changed on disk
            // (the app decides) or the content cannot be made (trying again changes nothing).
            // At least a second apart: a failure that lasts must not spin with a tiny delay.
            if error.code != .changedOnDisk && error.code != .contentsInvalid { document.scheduleAutosave(minimum: .seconds(1)) }
        }
    }

    /// Saves for another program about to read the file. Answers at once when there is
    /// nothing to save, or a load is under way (a revert discards the edits, an automatic
    /// one keeps them unsaved): waiting for it could wait for another document's answer,
    /// while that one waits for this one's (two documents on one file, each reverting).
    private static func saveChanges(of reference: DocumentReference, on owner: isolated any Actor) async -> (any Error)? {
        guard let document = reference.document, document.owner === owner, document.hasUnsavedChanges, !document.loading,
            !document.documentState.contains(.closed)
        else { return nil }
        do {
            try await document.saveChanges()
            return nil
        } catch {
            return error
        }
    }

    /// Loads the file again after another program or device changed it, unless there are
    /// unsaved changes (they would be lost: the document is `inConflict` instead) or the
    /// document is closed (`reload`). A revert that fails (the file is gone) leaves the
    /// document as it was.
    private static func revertToTheFile(_ reference: DocumentReference, on owner: isolated any Actor) async {
        guard let document = reference.document, document.owner === owner else { return }
        try? await document.reload(nil, discardingEdits: false)
    }
}

/// The document, for the tasks that act for it from elsewhere. `@unchecked Sendable`: they
/// open it only on the actor the document is used from, where its own methods run.
final class DocumentReference: @unchecked Sendable {
    weak var document: Document?

    init(_ document: Document) {
        self.document = document
    }
}
