import Foundation
import Logging
import PresenterPlanning
import Testing

@testable import UbiquityDaemon

/// How the hub recognizes a presented file that a program moved without coordinating: by
/// its inode, at the path the watcher saw appear, or below a folder that appeared whole.
/// The hub is fed what the watcher would report; the files are real.
@Suite struct PresenterMoveTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-moves-\(UUID().uuidString.prefix(8))").path

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    private func path(_ relative: String) -> [UInt8] { Array((root + "/" + relative).utf8) }

    /// A hub with one presenter of `file` (a file made here).
    private func presenting(_ file: String) async throws -> PresenterHub {
        FileManager.default.createFile(atPath: root + "/" + file, contents: Data("hello\n".utf8))
        let hub = PresenterHub(markerPath: root + "/marker", logger: Logger(label: "test"))
        let session = await hub.connect(pid: 4242, program: "test")
        try await hub.add(session: session.id, presenter: "P", path: path(file))
        return hub
    }

    @Test func aRemovalAndAnAppearanceOfTheSameInodeAreAMove() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try await presenting("f.txt")
        try FileManager.default.moveItem(atPath: root + "/f.txt", toPath: root + "/g.txt")
        let changes = await hub.pairMoves([.removed(path("f.txt")), .appeared(path("g.txt"))])
        #expect(changes == [.moved(from: path("f.txt"), to: path("g.txt"))])
    }

    /// A client that reconnects registers its presenters again, and an `add` waiting for
    /// the connection may arrive after the file moved: the inode seen first is kept.
    @Test func aPresenterRegisteredAgainAfterTheMoveIsStillRecognized() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try await presenting("f.txt")
        try FileManager.default.moveItem(atPath: root + "/f.txt", toPath: root + "/g.txt")
        let session = try #require(await hub.sessions.keys.first)
        try await hub.add(session: session, presenter: "P", path: path("f.txt"))
        let changes = await hub.pairMoves([.removed(path("f.txt")), .appeared(path("g.txt"))])
        #expect(changes == [.moved(from: path("f.txt"), to: path("g.txt"))])
    }

    /// Moved into folders made a moment before, which the watcher reads as a whole: only
    /// the top folder's appearance is reported, and no removal of the file yet.
    @Test func aFileMovedIntoAFolderThatAppearedWholeIsFoundInIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try await presenting("f.txt")
        try FileManager.default.createDirectory(atPath: root + "/N/a/b", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/N/a/other.txt", contents: Data())
        try FileManager.default.moveItem(atPath: root + "/f.txt", toPath: root + "/N/a/b/f.txt")
        let changes = await hub.findMoves(await hub.pairMoves([.appeared(path("N"))]))
        #expect(changes == [.appeared(path("N")), .moved(from: path("f.txt"), to: path("N/a/b/f.txt"))])
        #expect(await hub.vanished.isEmpty, "found: not told as deleted later")
    }

    /// A presented file gone without a trace in the arrivals is held for the move window,
    /// then told as deleted (`expiredVanishings`), as one whose removal was reported.
    @Test func aFileGoneWithoutATraceWaitsToBeToldAsDeleted() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hub = try await presenting("f.txt")
        try FileManager.default.createDirectory(atPath: root + "/N", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: root + "/f.txt")
        let changes = await hub.findMoves([.appeared(path("N"))])
        #expect(changes == [.appeared(path("N"))])
        #expect(await hub.vanished.keys.contains(path("f.txt")))
    }

    /// The search looks at `entryBudget` entries at most: a file below a folder that
    /// appeared with more is not looked for, and is told as deleted.
    @Test(arguments: [10, ArrivalSearch.entryBudget]) func theSearchStopsAtItsBudget(files: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/N/deep", withIntermediateDirectories: true)
        for index in 0..<files {
            FileManager.default.createFile(atPath: root + "/N/\(index)", contents: nil)
        }
        FileManager.default.createFile(atPath: root + "/N/deep/sought", contents: nil)
        let sought = try #require(FileStamp(path("N/deep/sought"))?.identity)

        var search = ArrivalSearch(sought: [sought: path("f.txt")])
        let found = search.moves(into: path("N")).map(\.to)
        #expect(found == (files < ArrivalSearch.entryBudget ? [path("N/deep/sought")] : []))
    }
}
