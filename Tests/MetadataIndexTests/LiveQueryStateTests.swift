import APIModel
import Foundation
import MetadataIndex
import RawPaths
import Testing

/// Live queries against a real index: each batch of changes gives NSMetadataQuery's
/// added / changed / removed updates, from the touched rows alone.
@Suite struct LiveQueryStateTests {
    /// A fixture with a live query over `predicate` (scope all), started on `items`.
    func watching(_ predicate: String?, _ items: [ItemSnapshot]) throws -> (IndexFixture, LiveQueryState) {
        let fixture = try IndexFixture()
        try fixture.index.apply(items.map(IndexChange.upsert))
        let plan = try QueryPlan(QueryRequest(predicate: predicate, scope: .all, attributes: ["kMDItemFSName", "kMDItemFSSize"], sync: false))
        return (fixture, LiveQueryState(plan: plan, gathered: try fixture.index.gather(plan)))
    }

    func updates(_ state: inout LiveQueryState, _ fixture: IndexFixture, _ changes: [IndexChange]) throws -> [String] {
        let applied = try fixture.index.apply(changes, journaling: true)
        return try state.updates(for: applied, in: fixture.index).map { update in
            guard case .string(let name)? = update.item.attributes["kMDItemFSName"] else { return "\(update.kind.rawValue) ?" }
            return "\(update.kind.rawValue) \(name)"
        }
    }

    @Test func addChangeAndDeleteGiveTheirKinds() throws {
        var (fixture, state) = try watching(#"kMDItemFSName ENDSWITH ".txt""#, [IndexFixture.item("Documents/a.txt")])
        defer { fixture.remove() }
        #expect(state.matchCount == 1)
        #expect(try updates(&state, fixture, [.upsert(IndexFixture.item("Documents/b.txt")), .upsert(IndexFixture.item("Documents/b.md"))]) == ["added b.txt"])
        #expect(try updates(&state, fixture, [.upsert(IndexFixture.item("Documents/a.txt", size: 99))]) == ["changed a.txt"])
        #expect(try updates(&state, fixture, [.remove(container: IndexFixture.container, relativePath: "Documents/a.txt")]) == ["removed a.txt"])
        #expect(try updates(&state, fixture, [.remove(container: IndexFixture.container, relativePath: "Documents/b.md")]).isEmpty)
    }

    @Test func anItemThatStopsMatchingIsRemovedWithItsNewAttributes() throws {
        var (fixture, state) = try watching("kMDItemFSSize > 50", [IndexFixture.item("Documents/big", size: 100)])
        defer { fixture.remove() }
        let applied = try fixture.index.apply([.upsert(IndexFixture.item("Documents/big", size: 10))], journaling: true)
        let update = try #require(try state.updates(for: applied, in: fixture.index).first)
        #expect(update.kind == .removed)
        #expect(update.item.attributes["kMDItemFSSize"] == .int(10))
        #expect(try updates(&state, fixture, [.upsert(IndexFixture.item("Documents/big", size: 60))]) == ["added big"])
    }

    @Test func aFolderMoveRemovesTheOldPathsAndAddsTheNewOnes() throws {
        var (fixture, state) = try watching(#"kMDItemFSName ENDSWITH ".txt""#, [
            IndexFixture.item("Documents/d", kind: .folder), IndexFixture.item("Documents/d/x.txt"), IndexFixture.item("Documents/d/y.md"),
        ])
        defer { fixture.remove() }
        let applied = try fixture.index.apply([
            .move(container: IndexFixture.container, from: "Documents/d", to: "Documents/e", absoluteTo: RawPath("/r/iCloud~org~ubiquity~Default/Documents/e")),
        ], journaling: true)
        let kindsAndPaths = try state.updates(for: applied, in: fixture.index).map { "\($0.kind.rawValue) \(String(decoding: $0.item.rawPath, as: UTF8.self))" }
        #expect(kindsAndPaths == [
            "removed /r/iCloud~org~ubiquity~Default/Documents/d/x.txt", "added /r/iCloud~org~ubiquity~Default/Documents/e/x.txt",
        ])
    }

    @Test func removedItemsCarryOnlyTheRequestedAttributes() throws {
        var (fixture, state) = try watching(nil, [IndexFixture.item("Documents/a.txt")])
        defer { fixture.remove() }
        let applied = try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/a.txt")], journaling: true)
        let update = try #require(try state.updates(for: applied, in: fixture.index).first)
        #expect(Set(update.item.attributes.keys) == ["kMDItemFSName", "kMDItemFSSize"])
    }

    @Test func aPredicateWithAResidualIsEvaluatedInMemoryOnTheTouchedRows() throws {
        var (fixture, state) = try watching(#"kMDItemFSName ==[c] "a.txt""#, [IndexFixture.item("Documents/a.txt")])
        defer { fixture.remove() }
        #expect(state.plan.compiled?.residual != nil)
        #expect(try updates(&state, fixture, [.upsert(IndexFixture.item("Documents/A.TXT")), .upsert(IndexFixture.item("Documents/b.txt"))]) == ["added A.TXT"])
    }

    @Test func withoutJournalingApplyRecordsNothing() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        #expect(try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt"))]).isEmpty)
        #expect(try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/a.txt")], journaling: true).removed.count == 1)
    }

    @Test func aTouchThenARemovalLeavesOnlyTheRemovalAndARemovalThenATouchKeepsBoth() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        var first = try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt"))], journaling: true)
        let id = try #require(first.touched.first)
        first.append(try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/a.txt")], journaling: true))
        #expect(first.touched.isEmpty)
        #expect(Array(first.removed.keys) == [id])
    }
}
