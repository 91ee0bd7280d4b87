/// A three-way merge of two concurrent versions of a diary against their common parent, for
/// the sync engine (DESIGN.md decision 5). Pure and deterministic: every device that sees the
/// same (base, winner, loser) computes the same result, order included, so the merged file
/// gets the same content hash everywhere.
///
/// Entries are matched by their stable `id` (the k-th entry with a given id on one side
/// matches the k-th with that id on the others, so a hand-made file that repeats an id loses
/// nothing). For each entry:
/// - added on one side only: kept;
/// - deleted on one side, unchanged on the other: deleted;
/// - deleted on one side, edited on the other: the edit wins (kept, not a clash);
/// - changed on both sides: merged field by field (`DiaryEntryField`); a field changed on one
///   side takes that side's value; a field both sides set to different values keeps the
///   winner's and is reported in a `DiaryMergeClash`; `modified` becomes the later of the two.
///   An entry both sides added with the same id is merged the same way, against no base.
///
/// Order: the winner's entries in the winner's order. Each entry only the loser brings (its
/// additions, and entries it edited that the winner deleted) goes after its anchor, the
/// nearest entry before it in the loser's list that the result keeps from the winner, and
/// after the entries the winner alone has right behind that anchor (the winner's own
/// additions there); with no anchor, it goes before the first entry both lists have. So
/// entries both sides appended at the end (the app appends) come out winner's first.
public enum DiaryMerge {
    public static func merge(base: [DiaryEntry], winner: [DiaryEntry], loser: [DiaryEntry]) -> DiaryMergeResult {
        let bases = EntryKey.index(base), winners = EntryKey.index(winner), losers = EntryKey.index(loser)
        var kept: [EntryKey: DiaryEntry] = [:]
        var clashes: [EntryKey: DiaryMergeClash] = [:]
        for key in Set(bases.keys).union(winners.keys).union(losers.keys) {
            let outcome = merge(base: bases[key], winner: winners[key], loser: losers[key])
            kept[key] = outcome.entry
            clashes[key] = outcome.clash
        }
        let order = mergedOrder(winner: EntryKey.keys(winner), loser: EntryKey.keys(loser), kept: kept)
        return DiaryMergeResult(entries: order.compactMap { kept[$0] }, clashes: order.compactMap { clashes[$0] })
    }

    /// One entry's fate; nil `entry` means deleted (or never there).
    static func merge(base: DiaryEntry?, winner: DiaryEntry?, loser: DiaryEntry?) -> (entry: DiaryEntry?, clash: DiaryMergeClash?) {
        switch (winner, loser) {
        case (nil, nil): return (nil, nil)
        case (let winner?, nil): return (base == winner ? nil : winner, nil)
        case (nil, let loser?): return (base == loser ? nil : loser, nil)
        case (let winner?, let loser?): return FieldMerge.merge(base: base, winner: winner, loser: loser)
        }
    }

    /// The result's order (see the type's documentation).
    static func mergedOrder(winner: [EntryKey], loser: [EntryKey], kept: [EntryKey: DiaryEntry]) -> [EntryKey] {
        let placed = winner.filter { kept[$0] != nil }
        let followers = loserOnlyEntries(loser, placed: Set(placed), kept: kept)
        let loserKeys = Set(loser)
        var result: [EntryKey] = []
        var anchor: EntryKey? = nil
        for key in placed {
            // An anchor's followers go after the winner-only run behind it, so just before
            // the next entry both sides have.
            if loserKeys.contains(key) {
                result += followers[anchor, default: []]
                anchor = key
            }
            result.append(key)
        }
        return result + followers[anchor, default: []]
    }

    /// The kept entries only the loser brings, grouped by their anchor (nil: none before them).
    private static func loserOnlyEntries(_ loser: [EntryKey], placed: Set<EntryKey>, kept: [EntryKey: DiaryEntry]) -> [EntryKey?: [EntryKey]] {
        var followers: [EntryKey?: [EntryKey]] = [:]
        var anchor: EntryKey? = nil
        for key in loser {
            if placed.contains(key) {
                anchor = key
            } else if kept[key] != nil {
                followers[anchor, default: []].append(key)
            }
        }
        return followers
    }
}

/// How entries are matched across the three lists: the id, and which occurrence of it.
struct EntryKey: Hashable {
    var id: String
    var occurrence: Int

    static func keys(_ entries: [DiaryEntry]) -> [EntryKey] {
        var seen: [String: Int] = [:]
        return entries.map { entry in
            defer { seen[entry.id, default: 0] += 1 }
            return EntryKey(id: entry.id, occurrence: seen[entry.id, default: 0])
        }
    }

    static func index(_ entries: [DiaryEntry]) -> [EntryKey: DiaryEntry] {
        Dictionary(uniqueKeysWithValues: zip(keys(entries), entries))
    }
}
