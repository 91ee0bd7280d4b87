import APIModel

/// A change the watcher saw and the indexer applied, made by any program (an editor,
/// `echo >> F`), with canonical absolute paths.
public enum ObservedChange: Sendable, Hashable {
    /// A new item is at the path.
    case appeared([UInt8])
    /// The item at the path changed (content or attributes).
    case changed([UInt8])
    /// The item at the path is gone.
    case removed([UInt8])
    /// The item moved (a folder rename, or a file whose inode turned up at a new path).
    case moved(from: [UInt8], to: [UInt8])
    /// The subtree was read again as a whole (a new folder, an overflow): anything may have changed.
    case rescanned([UInt8])
}

/// What presenters are told of changes nobody coordinated: the presenter of the item gets
/// `didChange`, `didMove(to:)` or `accommodateDeletion` (as news: the item is already
/// gone), presenters of folders above it get the subitem forms. Nobody is asked anything:
/// the change has happened.
public enum ObservedChangePlanner {
    public static func notices(_ changes: [ObservedChange], presenters: [Presence]) -> [PresenterPlan] {
        AccessPlanner.plans(presenters, leavingOut: nil) { presence in
            var messages: [PresenterMessage] = []
            for change in changes { messages.appendNew(notices(change, presence.path)) }
            return messages
        }
    }

    static func notices(_ change: ObservedChange, _ presented: [UInt8]) -> [PresenterMessage] {
        switch change {
        case .moved(let from, let to):
            return moveNotices(from: from, to: to, presented)
        case .appeared(let path), .changed(let path), .removed(let path), .rescanned(let path):
            guard let relation = PathRelation.of(presented: presented, accessed: path) else { return [] }
            return notices(change, path, relation)
        }
    }

    static func notices(_ change: ObservedChange, _ path: [UInt8], _ relation: PathRelation) -> [PresenterMessage] {
        switch (change, relation) {
        case (.appeared, .ancestor): return [PresenterMessage(.subitemDidAppear, rawPath: path)]
        case (_, .ancestor): return [PresenterMessage(.subitemDidChange, rawPath: path)]
        case (.removed, _): return [PresenterMessage(.accommodateDeletion)]
        case (.rescanned, _), (_, .same): return [PresenterMessage(.didChange)]
        default: return []  // a folder above the presented item changed: not the item itself
        }
    }

    static func moveNotices(from: [UInt8], to: [UInt8], _ presented: [UInt8]) -> [PresenterMessage] {
        switch PathRelation.of(presented: presented, accessed: from) {
        case .same, .descendant:
            return [PresenterMessage(.didMove, rawPath: PathRelation.rebase(presented, from: from, to: to))]
        case .ancestor:
            return [PresenterMessage(.subitemDidMove, rawPath: from, rawDestination: to)]
        case nil:
            let arrived = PathRelation.of(presented: presented, accessed: to) == .ancestor
            return arrived ? [PresenterMessage(.subitemDidAppear, rawPath: to)] : []
        }
    }
}
