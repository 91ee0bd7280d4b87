/// The field-by-field merge of one entry that both sides have.
struct FieldMerge {
    let base: DiaryEntry?
    let winner: DiaryEntry
    let loser: DiaryEntry
    private(set) var merged: DiaryEntry
    private(set) var clashing: [DiaryEntryField] = []

    static func merge(base: DiaryEntry?, winner: DiaryEntry, loser: DiaryEntry) -> (entry: DiaryEntry, clash: DiaryMergeClash?) {
        var merge = FieldMerge(base: base, winner: winner, loser: loser, merged: winner)
        merge.take(\.title, .title)
        merge.take(\.body, .body)
        merge.take(\.created, .created)
        merge.take(\.tags, .tags)
        merge.take(\.attachment, .attachment)
        merge.takeModified()
        let clash = merge.clashing.isEmpty
            ? nil : DiaryMergeClash(entryID: winner.id, fields: merge.clashing, kept: merge.merged, lost: loser)
        return (merge.merged, clash)
    }

    /// The side that changed the field gives its value; when both changed it differently the
    /// winner's stays and the field clashes. Without a base (both added the entry) any
    /// difference clashes.
    private mutating func take<Value: Equatable>(_ field: WritableKeyPath<DiaryEntry, Value>, _ name: DiaryEntryField) {
        let (mine, theirs) = (winner[keyPath: field], loser[keyPath: field])
        guard mine != theirs else { return }
        if let base, base[keyPath: field] == mine {
            merged[keyPath: field] = theirs
        } else if let base, base[keyPath: field] == theirs {
            return
        } else {
            clashing.append(name)
        }
    }

    /// `modified` follows the same rule, but two different edits are no clash: the entry was
    /// last modified at the later of the two times.
    private mutating func takeModified() {
        let (mine, theirs) = (winner.modified, loser.modified)
        guard mine != theirs else { return }
        if base?.modified == mine || (base?.modified != theirs && theirs > mine) {
            merged.modified = theirs
        }
    }
}
