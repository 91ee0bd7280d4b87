extension FileCoordinator {
    /// Options of a coordinated read, modelled on `NSFileCoordinator.ReadingOptions` (same raw
    /// values). Every read takes a shared claim on the item and intent claims on its ancestors;
    /// the options change what is claimed and what presenters are asked, never the exclusion rules.
    public struct ReadingOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Do not ask presenters to save first: read what is on disk now. On Linux this only
        /// changes what presenters are sent (they are skipped); the shared claim is the same.
        public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
        /// If the item is a symbolic link, claim and hand to the accessor the item it points to
        /// (resolved with `realpath(3)`); without it the link itself is claimed.
        public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
        /// The reader wants only metadata that is there now (size, dates, the ubiquity
        /// attributes): it never triggers a download of a not-downloaded item. The claim is an
        /// ordinary shared claim, so it still waits for writers.
        public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
        /// The reader copies the item away (for an upload). Same claim as a plain read.
        public static let forUploading = ReadingOptions(rawValue: 1 << 3)
        /// Not Apple's: lock only the lock files that exist, creating none. A path that
        /// nobody coordinated lately (no lock file) is read without leaving one behind, so a
        /// reader of every file (ubqd's indexer) does not fill the lock folder (tmpfs memory).
        /// Any claim held now is still respected; a writer that starts during the read is
        /// not held off, so use it only where a later look catches up (the index, which the
        /// watcher keeps).
        public static let withoutCreatingLockFiles = ReadingOptions(rawValue: 1 << 16)
    }

    /// Options of a coordinated write, modelled on `NSFileCoordinator.WritingOptions` (same raw
    /// values). Every write takes an exclusive claim on the item (which, for a folder, excludes
    /// every access below it) and intent claims on its ancestors.
    public struct WritingOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The writer deletes the item: presenters are asked to accommodate the deletion
        /// (close or forget the item) before, instead of being told it changed after.
        public static let forDeleting = WritingOptions(rawValue: 1 << 0)
        /// The writer moves the item. Call `FileCoordinator.item(at:didMoveTo:)` inside the
        /// accessor: callers that were waiting for the old path then receive the new URL.
        public static let forMoving = WritingOptions(rawValue: 1 << 1)
        /// The writer merges its content with what is there: presenters are asked to save first.
        public static let forMerging = WritingOptions(rawValue: 1 << 2)
        /// The writer replaces the item wholesale (temp file and rename): presenters are asked to
        /// relinquish it as for a deletion, then told it changed.
        public static let forReplacing = WritingOptions(rawValue: 1 << 3)
        /// The writer changes only metadata that does not depend on the content (for example
        /// a tag). Same exclusive claim; presenters are not asked to save.
        public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
    }
}

/// One item of a coordinated access: a claim on a URL as either a read or a write.
enum ItemAccess: Sendable {
    case reading(FileCoordinator.ReadingOptions)
    case writing(FileCoordinator.WritingOptions)

    var exclusive: Bool {
        if case .writing = self { return true }
        return false
    }

    /// Whether its lock files are created when missing (always, but for
    /// `.withoutCreatingLockFiles` reads).
    var createsLockFiles: Bool {
        if case .reading(let options) = self { return !options.contains(.withoutCreatingLockFiles) }
        return true
    }

    var resolvesFinalLink: Bool {
        if case .reading(let options) = self { return options.contains(.resolvesSymbolicLink) }
        return false
    }

    var verb: String { exclusive ? "write" : "read" }
}
