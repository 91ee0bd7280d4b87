import APIModel
import Foundation
import MetadataIndex
import RawPaths
import Testing

@Suite struct MetadataIndexTests {
    @Test func upsertThenQueryByNameSizeAndType() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(IndexFixture.item("Documents/a.txt", size: 5)),
            .upsert(IndexFixture.item("Documents/B.TXT", size: 500)),
            .upsert(IndexFixture.item("Documents/img.png", size: 50, type: "public.png", tree: ["public.png", "public.image", "public.data"])),
        ])
        #expect(try fixture.query(#"kMDItemFSName ENDSWITH[c] ".txt""#).sorted() == ["B.TXT", "a.txt"])
        #expect(try fixture.query(#"kMDItemFSName ENDSWITH ".txt""#) == ["a.txt"])
        #expect(try fixture.query("kMDItemFSSize >= 50", sort: [SortKey(attribute: "kMDItemFSSize", ascending: false)]) == ["B.TXT", "img.png"])
        #expect(try fixture.query(#"kMDItemContentTypeTree == "public.image""#) == ["img.png"])
        #expect(try fixture.query(nil, sort: [SortKey(attribute: "NSMetadataItemFSNameKey")], limit: 2) == ["B.TXT", "a.txt"])
    }

    @Test func upsertOfAnExistingPathReplacesIt() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt", size: 5, text: "old words"))])
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt", size: 7, type: "public.json", tree: ["public.json", "public.text"], text: "new words"))])
        #expect(try fixture.index.counts() == [IndexFixture.container: 1])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "old""#).isEmpty)
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "new""#) == ["a.txt"])
        #expect(try fixture.query(#"kMDItemContentTypeTree == "public.plain-text""#).isEmpty)
        #expect(try fixture.query("kMDItemFSSize == 7") == ["a.txt"])
        #expect(try fixture.query(#"kMDItemContentType == "public.json""#) == ["a.txt"])
    }

    /// An update in place rewrites what can change at a path and keeps the names the path
    /// decides: a file replaced by a folder of the same name gets a folder's URL.
    @Test func aFileReplacedByAFolderOfTheSameNameIsUpdatedInPlace() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/Été", size: 5, modified: 10, text: "gone"))])
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/Été", size: 0, kind: .folder, modified: 20))])
        #expect(try fixture.index.counts() == [IndexFixture.container: 1])
        let folder = try #require(try fixture.index.item(container: IndexFixture.container, relativePath: "Documents/Été"))
        #expect(folder.attributes["kMDItemURL"] == .string("file:///r/iCloud~org~ubiquity~Default/Documents/%C3%89t%C3%A9/"))
        #expect(folder.attributes["kMDItemContentType"] == .string("public.folder"))
        #expect(folder.attributes["kMDItemFSContentChangeDate"] == .date(20))
        #expect(try fixture.query(#"kMDItemFSName ==[cd] "ete""#) == ["Été"])
        #expect(try fixture.query(#"kMDItemPath ==[cd] "/r/icloud~org~ubiquity~default/documents/ete""#) == ["Été"])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "gone""#).isEmpty)
    }

    @Test func removingAFolderRemovesItsSubtreeButNotLookalikes() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply(["Documents/d", "Documents/d/x", "Documents/d/e/y", "Documents/d e", "Documents/d0"].map {
            .upsert(IndexFixture.item($0, kind: $0.hasSuffix("/d") || $0.hasSuffix("d e") ? .folder : .file))
        })
        try fixture.index.apply([.remove(container: IndexFixture.container, relativePath: "Documents/d")])
        #expect(try fixture.query(nil).sorted() == ["d e", "d0"])
    }

    @Test func movingAFolderRewritesPathsAndKeepsText() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(IndexFixture.item("Documents/old", kind: .folder)),
            .upsert(IndexFixture.item("Documents/old/in/f.txt", text: "kept text")),
        ])
        try fixture.index.apply([.move(container: IndexFixture.container, from: "Documents/old", to: "Documents/new", absoluteTo: "/r/iCloud~org~ubiquity~Default/Documents/new")])
        let moved = try #require(try fixture.index.item(container: IndexFixture.container, relativePath: "Documents/new/in/f.txt"))
        #expect(moved.attributes["kMDItemPath"] == .string("/r/iCloud~org~ubiquity~Default/Documents/new/in/f.txt"))
        #expect(moved.attributes["kMDItemURL"] == .string("file:///r/iCloud~org~ubiquity~Default/Documents/new/in/f.txt"))
        #expect(try fixture.index.item(container: IndexFixture.container, relativePath: "Documents/old/in/f.txt") == nil)
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "kept""#) == ["f.txt"])
        #expect(try fixture.query(#"kMDItemPath BEGINSWITH "/r/iCloud~org~ubiquity~Default/Documents/new""#).sorted() == ["f.txt", "new"])
    }

    @Test func scopesSplitDocumentsFromData() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([
            .upsert(IndexFixture.item("Documents", kind: .folder)),
            .upsert(IndexFixture.item("Documents/doc")),
            .upsert(IndexFixture.item("Library/pref")),
        ])
        #expect(try fixture.query(nil, scope: .documents) == ["doc"])
        #expect(try fixture.query(nil, scope: .data) == ["pref"])
        #expect(try fixture.query(nil, scope: .all).sorted() == ["doc", "pref"])
    }

    @Test func rawPathsSurviveInvalidUTF8() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        var item = IndexFixture.item("Documents/x")
        let raw = RawPath(bytes: Array("Documents/bad".utf8) + [0xFF, 0x0A])
        item.relativePath = raw
        item.absolutePath = RawPath("/r/iCloud~org~ubiquity~Default").appending(raw)
        try fixture.index.apply([.upsert(item)])
        let found = try #require(try fixture.index.item(container: IndexFixture.container, relativePath: raw))
        #expect(found.rawPath == Data(item.absolutePath.bytes))
        #expect(found.attributes["kMDItemFSName"] == .string("bad\u{FFFD}\n"))
        #expect(try fixture.index.signatures(container: IndexFixture.container, under: RawPath())[raw] == item.signature)
    }

    @Test func signaturesComeInPathOrderAPageAtATimeForASubtreeAndForTheWholeContainer() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        // `a b`, `a.txt` and `a0` sort between `a` and `a/…` or right after: not in a's subtree.
        let paths = ["Documents", "Documents/a", "Documents/a/x", "Documents/a/y/z", "Documents/a b", "Documents/a.txt", "Documents/a0"]
        var items = paths.map { IndexFixture.item($0) }
        var raw = IndexFixture.item("Documents/x")
        raw.relativePath = RawPath(bytes: [0xFF, 0x61])  // a top-level name starting with 0xFF
        raw.absolutePath = RawPath("/r/iCloud~org~ubiquity~Default").appending(raw.relativePath)
        items.append(raw)
        try fixture.index.apply(items.map(IndexChange.upsert))

        func paged(_ root: RawPath) throws -> [RawPath] {
            var all: [RawPath] = []
            while true {
                let page = try fixture.index.signatures(container: IndexFixture.container, under: root, after: all.last, limit: 2)
                if page.isEmpty { return all }
                all += page.map(\.relativePath)
            }
        }
        #expect(try paged("Documents/a") == ["Documents/a", "Documents/a/x", "Documents/a/y/z"])
        #expect(try paged(RawPath()) == (paths.map { RawPath($0) } + [raw.relativePath]).sorted())
        #expect(try paged("Documents/a.txt") == ["Documents/a.txt"])
        #expect(try paged("Documents/nothing").isEmpty)
    }

    @Test func malformedPredicatesAndSortKeysAreRejectedWithPositions() throws {
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(predicate: "kMDItemFSName ==")) }
        do {
            _ = try QueryPlan(QueryRequest(predicate: #"kMDItemFSName == "a" AND"#))
        } catch {
            #expect(error.kind == "parse")
            #expect(error.position != nil)
        }
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(sort: [SortKey(attribute: "kMDItemContentTypeTree")])) }
        #expect(throws: QueryPlanError.self) { try QueryPlan(QueryRequest(predicate: "noSuchAttribute == 1")) }
    }

    @Test func indexBuiltForAnotherRootIsEmptied() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/a"))])
        let reopened = try MetadataIndex(path: fixture.folder + "/index.sqlite", root: "/elsewhere")
        #expect(try reopened.counts().isEmpty)
    }
}

@Suite struct ResidualErrorTests {
    @Test func aResidualThatRaisesFailsTheQueryInsteadOfMatchingNothing() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/a.txt"))])
        // A number compared with a string by `<`: Apple raises, so SQL cannot decide it
        // and the comparison runs in memory, where it raises.
        let plan = try QueryPlan(QueryRequest(predicate: #"kMDItemFSSize < "big""#, scope: .all, sync: false))
        #expect(plan.compiled?.residual != nil)
        #expect(throws: QueryPlanError.self) { try fixture.index.run(plan) }
    }
}

/// Text a file holds past a NUL byte (a script with a binary tail, a log a crash wrote
/// zeros into) is searchable like the rest.
@Suite struct TextWithNULTests {
    @Test func wordsAfterANULAreFound() throws {
        let fixture = try IndexFixture()
        defer { fixture.remove() }
        try fixture.index.apply([.upsert(IndexFixture.item("Documents/run.sh", text: "#!/bin/sh\necho first\n\u{0}echo heron\n"))])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "first""#) == ["run.sh"])
        #expect(try fixture.query(#"kMDItemTextContent CONTAINS "heron""#) == ["run.sh"])
    }
}
