import RawPaths

/// What applying a settled change did to one item, with its absolute path: what file
/// presenters are told of changes made by programs that do not coordinate.
public enum PathOutcome: Sendable, Hashable {
    /// A new item was indexed.
    case appeared(RawPath)
    /// An indexed item changed (another signature).
    case changed(RawPath)
    /// An indexed item is gone.
    case removed(RawPath)
    /// A folder moved (the items below it moved with it).
    case moved(from: RawPath, to: RawPath)
    /// A subtree was reconciled as a whole (a new folder, an overflow).
    case rescanned(RawPath)
}

/// What the indexer records beside the index, for whoever takes it: outcomes (when asked
/// for) and items whose content could not be read now because another process held a
/// conflicting coordinated claim (to look at again later).
struct IndexerJournal {
    var recordsOutcomes = false
    var outcomes: [PathOutcome] = []
    /// Root-relative paths.
    var deferred: [RawPath] = []

    mutating func note(_ outcome: @autoclosure () -> PathOutcome) {
        if recordsOutcomes { outcomes.append(outcome()) }
    }
}
