import Diary
import KeyedArchive
import Testing

/// `DiaryMerge`: every case of the three-way merge, one row each.
@Suite struct DiaryMergeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var base: [DiaryEntry]
        var winner: [DiaryEntry]
        var loser: [DiaryEntry]
        var merged: [DiaryEntry]
        var clashes: [String: [DiaryEntryField]] = [:]
        var testDescription: String { name }
    }

    static func entry(_ id: String, _ title: String? = nil, body: String = "body", modified: Double = 0, tags: [String] = []) -> DiaryEntry {
        DiaryEntry(id: id, title: title ?? "title \(id)", body: body, created: ReferenceDate(secondsSince2001: 0),
                   modified: ReferenceDate(secondsSince2001: modified), tags: tags)
    }

    static let a = entry("A"), b = entry("B"), c = entry("C"), d = entry("D")

    static func edit(_ entry: DiaryEntry, at modified: Double, _ change: (inout DiaryEntry) -> Void) -> DiaryEntry {
        var edited = entry
        change(&edited)
        edited.modified = ReferenceDate(secondsSince2001: modified)
        return edited
    }

    static let titleX = edit(a, at: 5) { $0.title = "X" }
    static let titleY = edit(a, at: 7) { $0.title = "Y" }
    static let bodyZ = edit(a, at: 7) { $0.body = "Z" }
    static let merged = edit(a, at: 7) { $0.title = "X"; $0.body = "Z" }

    static let cases: [Case] = [
        Case(name: "nothing changed", base: [a, b], winner: [a, b], loser: [a, b], merged: [a, b]),
        Case(name: "added by the winner: kept", base: [a, b], winner: [a, b, c], loser: [a, b], merged: [a, b, c]),
        Case(name: "added by the loser: kept", base: [a, b], winner: [a, b], loser: [a, b, c], merged: [a, b, c]),
        Case(name: "added on both sides: the winner's first", base: [a], winner: [a, c], loser: [a, d], merged: [a, c, d]),
        Case(name: "added by the loser in the middle: after its predecessor", base: [a, b], winner: [a, b, c], loser: [a, d, b], merged: [a, d, b, c]),
        Case(name: "added by the loser before everything: first", base: [a, b], winner: [a, b], loser: [d, a, b], merged: [d, a, b]),
        Case(name: "added after an entry the merge deletes: after the nearest kept one", base: [a, b], winner: [a], loser: [a, b, d], merged: [a, d]),
        Case(name: "deleted by the winner, unchanged by the loser: deleted", base: [a, b], winner: [b], loser: [a, b], merged: [b]),
        Case(name: "deleted by the loser, unchanged by the winner: deleted", base: [a, b], winner: [a, b], loser: [b], merged: [b]),
        Case(name: "deleted on both sides: deleted", base: [a, b], winner: [b], loser: [b], merged: [b]),
        Case(name: "deleted by the winner, edited by the loser: the edit wins", base: [b, a], winner: [b], loser: [b, titleY], merged: [b, titleY]),
        Case(name: "deleted by the loser, edited by the winner: the edit wins", base: [a, b], winner: [titleX, b], loser: [b], merged: [titleX, b]),
        Case(name: "edited by one side only", base: [a, b], winner: [a, b], loser: [bodyZ, b], merged: [bodyZ, b]),
        Case(name: "different fields edited: merged field by field, the later modified", base: [a], winner: [titleX], loser: [bodyZ], merged: [merged]),
        Case(name: "the same field set to the same value: clean", base: [a], winner: [titleX], loser: [edit(titleX, at: 9) { _ in }],
             merged: [edit(titleX, at: 9) { _ in }]),
        Case(name: "the same field set to different values: the winner's, and a clash", base: [a], winner: [titleX], loser: [titleY],
             merged: [edit(titleX, at: 7) { _ in }], clashes: ["A": [.title]]),
        Case(name: "two clashing fields and one clean one",
             base: [a], winner: [edit(a, at: 3) { $0.title = "X"; $0.tags = ["p"] }],
             loser: [edit(a, at: 2) { $0.title = "Y"; $0.tags = ["q"]; $0.body = "Z"; $0.attachment = "z.jpg" }],
             merged: [edit(a, at: 3) { $0.title = "X"; $0.tags = ["p"]; $0.body = "Z"; $0.attachment = "z.jpg" }],
             clashes: ["A": [.title, .tags]]),
        Case(name: "added on both sides with one id and the same content: once", base: [], winner: [c], loser: [c], merged: [c]),
        Case(name: "added on both sides with one id, different titles: a clash", base: [], winner: [entry("C", "one", modified: 4)],
             loser: [entry("C", "two", modified: 3)], merged: [entry("C", "one", modified: 4)], clashes: ["C": [.title]]),
        Case(name: "added on both sides with one id, only modified differs: the later, clean", base: [],
             winner: [entry("C", modified: 4)], loser: [entry("C", modified: 8)], merged: [entry("C", modified: 8)]),
        Case(name: "a repeated id matches occurrence by occurrence",
             base: [a, entry("A", "second")], winner: [a, entry("A", "second, edited")], loser: [titleY, entry("A", "second")],
             merged: [titleY, entry("A", "second, edited")]),
        Case(name: "everything empty", base: [], winner: [], loser: [], merged: []),
    ]

    @Test(arguments: cases)
    func mergesAsTheRuleSays(_ row: Case) {
        let result = DiaryMerge.merge(base: row.base, winner: row.winner, loser: row.loser)
        #expect(result.entries == row.merged)
        #expect(Dictionary(uniqueKeysWithValues: result.clashes.map { ($0.entryID, $0.fields) }) == row.clashes)
        #expect(result.isClean == row.clashes.isEmpty)
    }

    @Test func aClashKeepsTheLosersEntryAndNamesTheMergedOne() throws {
        let result = DiaryMerge.merge(base: [Self.a, Self.b], winner: [Self.titleX, Self.b], loser: [Self.titleY, Self.b])
        let clash = try #require(result.clashes.first)
        #expect(result.clashes.count == 1)
        #expect(clash.lost == Self.titleY)
        #expect(clash.kept == result.entries[0])
        #expect(clash.kept.title == "X")
    }

    @Test func clashesComeInTheOrderOfTheirEntries() {
        let base = [Self.a, Self.b, Self.c]
        let winner = base.map { Self.edit($0, at: 1) { $0.body = "winner" } }
        let loser = base.map { Self.edit($0, at: 2) { $0.body = "loser" } }
        let result = DiaryMerge.merge(base: base, winner: winner, loser: loser)
        #expect(result.clashes.map(\.entryID) == ["A", "B", "C"])
        #expect(result.entries.map(\.body) == ["winner", "winner", "winner"])
    }
}
