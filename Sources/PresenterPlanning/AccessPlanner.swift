import APIModel

/// Who hears of a coordinated access, and what, before and after it (NSFilePresenter's
/// rules as `docs/API.md` states them). Pure: ubqd feeds it the registered presenters and
/// what it saw on the disk, and sends what it returns.
///
/// The presenter the access is made for (NSFileCoordinator(filePresenter:)) is left out: it
/// knows what it does. Every other presenter hears, the accessing process's own too, as on
/// Apple's systems. For each item:
/// - the presenter of the item itself, or of an item inside an accessed folder, is asked
///   `savePresentedItemChanges` (reads, unless `withoutChanges`; `forMerging` writes) and to
///   relinquish (to a reader or to a writer); `forDeleting` asks it to accommodate the
///   deletion instead of saving. After the access it is told `reacquire` (if it
///   relinquished), then `didChange` (a write), `didMove(to:)` (a recorded move), or nothing
///   more (a read, a deletion it accommodated).
/// - the presenter of a folder above the item is asked to save for a read (unless
///   `withoutChanges`) or a merging write, and `accommodateSubitemDeletion(at:)` for a
///   deletion; after a write it is told `subitemDidAppear(at:)` (the item is new),
///   `subitemDidChange(at:)` (changed, or gone without a `forDeleting`), or
///   `subitem(at:didMoveTo:)`.
public enum AccessPlanner {
    /// The messages each affected presenter is asked before the access, in presenter order.
    public static func before(_ items: [AccessedItem], presenters: [Presence], leavingOut: PresenterID?) -> [PresenterPlan] {
        plans(presenters, leavingOut: leavingOut) { presence in
            var messages: [PresenterMessage] = []
            for item in items {
                guard let relation = PathRelation.of(presented: presence.path, accessed: item.path) else { continue }
                messages.appendNew(before(item, relation))
            }
            return messages
        }
    }

    static func before(_ item: AccessedItem, _ relation: PathRelation) -> [PresenterMessage] {
        let saves = item.access == .reading ? !item.has(.withoutChanges) : item.has(.forMerging)
        let save: [PresenterMessage] = saves ? [PresenterMessage(.savePresentedItemChanges)] : []
        switch (relation, item.access) {
        case (.ancestor, _) where item.has(.forDeleting):
            return [PresenterMessage(.accommodateSubitemDeletion, rawPath: item.path)]
        case (.ancestor, _):
            return save
        case (_, .reading):
            return save + [PresenterMessage(.relinquishToReader)]
        case (_, .writing) where item.has(.forDeleting):
            return [PresenterMessage(.relinquishToWriter), PresenterMessage(.accommodateDeletion)]
        case (_, .writing):
            return save + [PresenterMessage(.relinquishToWriter)]
        }
    }

    /// The messages each presenter is told after the access. `asked` are the plans sent
    /// before (a presenter that relinquished gets `reacquire` first, whether or not it
    /// answered in time); `presenters` are those registered now.
    public static func after(
        _ items: [AccessedItem], asked: [PresenterPlan], presenters: [Presence], leavingOut: PresenterID?, outcome: AccessOutcome
    ) -> [PresenterPlan] {
        let relinquished = Set(asked.filter(\.relinquishes).map(\.presence.id))
        let everyone = presenters + asked.map(\.presence).filter { old in !presenters.contains { $0.id == old.id } }
        return plans(everyone, leavingOut: leavingOut) { presence in
            var messages: [PresenterMessage] = relinquished.contains(presence.id) ? [PresenterMessage(.reacquire)] : []
            guard outcome.accessed else { return messages }
            for item in items where item.access == .writing {
                if let relation = PathRelation.of(presented: presence.path, accessed: item.path) {
                    messages.appendNew(after(item, relation, presence, outcome))
                } else if let move = outcome.moves.first(where: { $0.from == item.path }),
                    PathRelation.of(presented: presence.path, accessed: move.to) == .ancestor
                {
                    messages.appendNew([PresenterMessage(.subitemDidAppear, rawPath: move.to)])
                }
            }
            return messages
        }
    }

    static func after(_ item: AccessedItem, _ relation: PathRelation, _ presence: Presence, _ outcome: AccessOutcome) -> [PresenterMessage] {
        let path = item.path
        if let move = outcome.moves.first(where: { $0.from == path }) {
            if relation == .ancestor { return [PresenterMessage(.subitemDidMove, rawPath: path, rawDestination: move.to)] }
            return [PresenterMessage(.didMove, rawPath: PathRelation.rebase(presence.path, from: path, to: move.to))]
        }
        let existed = outcome.existedBefore.contains(path)
        let exists = outcome.existsAfter.contains(relation == .ancestor ? path : presence.path)
        switch relation {
        case .ancestor:
            if exists { return [PresenterMessage(existed ? .subitemDidChange : .subitemDidAppear, rawPath: path)] }
            return existed && !item.has(.forDeleting) ? [PresenterMessage(.subitemDidChange, rawPath: path)] : []
        case .same, .descendant:
            if exists { return [PresenterMessage(.didChange)] }
            return existed && !item.has(.forDeleting) ? [PresenterMessage(.accommodateDeletion)] : []
        }
    }

    /// Runs `messages` for each presenter but `leavingOut`; keeps those with something to say.
    static func plans(_ presenters: [Presence], leavingOut: PresenterID?, _ messages: (Presence) -> [PresenterMessage]) -> [PresenterPlan] {
        presenters.filter { $0.id != leavingOut }.sorted { $0.id < $1.id }.compactMap { presence in
            let list = messages(presence)
            return list.isEmpty ? nil : PresenterPlan(presence: presence, messages: list)
        }
    }
}

/// What ubqd saw of an access once it ended.
public struct AccessOutcome: Sendable, Equatable {
    /// False when the claim was never had (timeout, cancellation): only `reacquire` is sent.
    public var accessed: Bool
    /// Moves the writer recorded (`FileCoordinator.item(at:didMoveTo:)`).
    public var moves: [(from: [UInt8], to: [UInt8])]
    /// Which accessed items existed when the access was announced.
    public var existedBefore: Set<[UInt8]>
    /// Which accessed items and presented items exist after it.
    public var existsAfter: Set<[UInt8]>

    public init(accessed: Bool, moves: [(from: [UInt8], to: [UInt8])] = [], existedBefore: Set<[UInt8]> = [], existsAfter: Set<[UInt8]> = []) {
        self.accessed = accessed
        self.moves = moves
        self.existedBefore = existedBefore
        self.existsAfter = existsAfter
    }

    public static func == (lhs: AccessOutcome, rhs: AccessOutcome) -> Bool {
        lhs.accessed == rhs.accessed && lhs.moves.elementsEqual(rhs.moves) { $0.from == $1.from && $0.to == $1.to }
            && lhs.existedBefore == rhs.existedBefore && lhs.existsAfter == rhs.existsAfter
    }
}
