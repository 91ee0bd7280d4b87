import Foundation

/// An object that shows a file or folder to the user and wants to hear when others (other
/// processes, or other objects of this one) read, write, move or delete it, modelled on
/// NSFilePresenter (same method names and completion handlers). Register it with
/// `FileCoordinator.addFilePresenter(_:)`.
///
/// Before a coordinated access, unless the access is made for this presenter (a
/// coordinator from `UbiquityContainer.fileCoordinator(filePresenter:)`, as
/// NSFileCoordinator(filePresenter:): name the presenter that makes a change, or it hears
/// of its own writes), ubqd has the presenter save
/// (`savePresentedItemChanges`) and relinquish the item to the reader or writer; the
/// access waits for the completion handlers (up to a deadline, 5 s by default: a presenter
/// that does not call them in time is skipped and ubqd logs it). After the access, the
/// reacquirer it gave runs, then `presentedItemDidChange()`, `presentedItemDidMove(to:)` and
/// the subitem forms (for a folder) tell what happened. Changes made by programs that do not
/// coordinate (an editor, `echo >> F`) arrive as the same notifications once ubqd's watcher
/// has seen them settle. When sync finds that another device changed a presented file at
/// the same time as this one, `presentedItemDidGain(_:)` hands over the conflict version,
/// and `presentedItemDidResolveConflict(_:)` tells when it is resolved (here or elsewhere),
/// or `presentedItemDidLose(_:)` when it is removed instead.
/// Without ubqd running, nothing arrives (coordination still locks).
///
/// Every method has a default that does nothing and calls its handler at once, as
/// NSFilePresenter's optional methods. They run on `presentedItemOperationQueue`, one at a
/// time, in the order ubqd sent them.
public protocol FilePresenter: AnyObject, Sendable {
    /// The item presented; nil presents nothing (the presenter hears nothing).
    var presentedItemURL: URL? { get }
    /// The queue the presenter's methods are called on (a serial queue keeps them in order).
    var presentedItemOperationQueue: OperationQueue { get }

    /// Save unsaved changes, then call `completionHandler` (with an error if it failed).
    func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Another process wants to read: stop writing, call `reader` with a block to run when
    /// it is done (or nil).
    func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void)
    /// Another process wants to write: stop reading and writing, call `writer` with a block
    /// to run when it is done (or nil).
    func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void)
    /// The item is about to be deleted (or, from the watcher, was deleted): close it.
    func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// The item's content or attributes changed.
    func presentedItemDidChange()
    /// The item now lives at `newURL` (`presentedItemURL` should answer it from now on).
    func presentedItemDidMove(to newURL: URL)
    /// The item gained a version: an unresolved conflict version, made by another device
    /// that changed the item at the same time (an open `Document` hears it through
    /// `conflictChanges()`).
    func presentedItemDidGain(_ version: FileVersion)
    /// A conflict version of the item was resolved, on this device or another.
    func presentedItemDidResolveConflict(_ version: FileVersion)
    /// A conflict version of the item was removed from its versions
    /// (`FileVersion.removeOtherVersionsOfItem(at:)`, on this device or another): `version`
    /// names it, and its file is gone.
    func presentedItemDidLose(_ version: FileVersion)

    /// For a folder: an item inside it changed (or went away).
    func presentedSubitemDidChange(at url: URL)
    /// For a folder: a new item appeared inside it.
    func presentedSubitemDidAppear(at url: URL)
    /// For a folder: an item inside it is about to be deleted.
    func accommodatePresentedSubitemDeletion(at url: URL, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// For a folder: an item inside it moved.
    func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL)
}

extension FilePresenter {
    public func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) { completionHandler(nil) }
    public func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) { reader(nil) }
    public func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) { writer(nil) }
    public func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    public func presentedItemDidChange() {}
    public func presentedItemDidMove(to newURL: URL) {}
    public func presentedItemDidGain(_ version: FileVersion) {}
    public func presentedItemDidResolveConflict(_ version: FileVersion) {}
    public func presentedItemDidLose(_ version: FileVersion) {}
    public func presentedSubitemDidChange(at url: URL) {}
    public func presentedSubitemDidAppear(at url: URL) {}
    public func accommodatePresentedSubitemDeletion(at url: URL, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    public func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL) {}
}
