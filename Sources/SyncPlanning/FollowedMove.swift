/// An edit that follows a rename made concurrently by another device, as in iCloud Drive
/// and Dropbox: device A renames `x` to `y` (in the mirror: `y` put with `movedFrom: x`, and
/// `x` deleted) while device B edits `x`. Without following, the edit beats the deletion at
/// `x` (`WinnerRule`), so every device would end with both files: the edit at `x`, the old
/// content at `y`. Following, the edit goes to `y` as a child of the rename's version there,
/// `x` stays deleted, and the old content is the previous version of `y`: nothing is lost.
///
/// The edit may still be this device's own (not yet published), or already be the current
/// version of `x` in the mirror (it was published before the rename was seen). Both end the
/// same way: the disk holds the edit at `move.path`, the base records that path at `move`
/// (so the next round sees the edit there as a local change and publishes it with `move` as
/// parent, an ordinary publish), and `from` is settled as deleted.
public struct FollowedMove: Hashable, Sendable {
    /// Where the edit's content comes from.
    public enum Edit: Hashable, Sendable {
        /// The file this device holds at `from`, renamed to `move.path` if it still has
        /// this state. It is either an edit made here, or the mirror's edit, synced here.
        case localFile(EntryState)
        /// The mirror's current version of `from`, fetched to `move.path`: this device has
        /// nothing at `from` (it made the rename, or applied it before the edit arrived).
        case mirrorVersion(VersionRecord)
        /// No content: this device deleted the file at `from`, which held the version the
        /// rename moved, unchanged. The deletion follows the rename as an edit would: the
        /// base takes the rename's arrival without the disk holding it, so the next round
        /// publishes its deletion at `move.path`, where the history keeps the content.
        /// Without this the rename, which beats the deletion at `from` (`WinnerRule`),
        /// brought the deleted file back on every device under its new name.
        case localDeletion
        /// No content here either: this device renamed the file at `from` (its content is
        /// new at another path here), while the rename took it along with its folder,
        /// keeping its name. The two compose: the base takes the arrival as for a deletion,
        /// so the next round publishes this device's rename as leaving `move.path`, and the
        /// new name follows the folder if it is in it (`Relocation`); elsewhere, its publish
        /// waits for that round (`SyncPlan.holdingRenamedNames`). Without this, both names
        /// stayed on every device. Not a deletion the guard weighs: the content lives on
        /// under the new name; but it waits with a deletion of its folder made here, which
        /// follows the rename only with it (`SyncPlan.withoutPublishedDeletions`).
        case localRename

        /// Whether the edit carries no content (a deletion or a rename made here): nothing
        /// is fetched or moved, and it follows only while the old path stays empty.
        public var carriesNoContent: Bool { self == .localDeletion || self == .localRename }
    }

    /// How `from` ends up deleted.
    public enum Departure: Hashable, Sendable {
        /// The rename's deletion is already current there: the base takes it.
        case adoptDeletion(VersionID)
        /// The edit is current there: a deletion replacing every head (the edit and the
        /// rename's deletion) records that the edit left with the rename.
        case publishDeletion(replacing: [VersionID])
    }

    /// The rename's arrival: the current version of the new path, `movedFrom == from`.
    public var move: VersionRecord
    /// The path the rename left, where the edit was made.
    public var from: String
    public var edit: Edit
    public var departure: Departure
    /// What the disk held at `move.path` when the plan was made: nothing, or the renamed
    /// content as synced there (the executor re-checks it before replacing it).
    public var expectedAtDestination: EntryState?

    public init(move: VersionRecord, from: String, edit: Edit, departure: Departure, expectedAtDestination: EntryState?) {
        self.move = move
        self.from = from
        self.edit = edit
        self.departure = departure
        self.expectedAtDestination = expectedAtDestination
    }
}
