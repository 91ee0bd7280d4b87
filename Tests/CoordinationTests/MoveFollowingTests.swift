import Foundation
import Testing
@testable import Coordination

/// A caller that waited while a coordinated `.forMoving` write moved its item (or a folder
/// above it) receives the URL that holds the item now.
@Suite("Following coordinated moves")
struct MoveFollowingTests {
    @Test("a waiter for a file inside a moved folder receives the file's new URL")
    func waiterFollowsFolderMove() async throws {
        let sandbox = try Sandbox()
        let mover = try FileCoordinator(lockDirectory: sandbox.locks)
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let folder = sandbox.url("a/b"), destination = sandbox.url("c/b2"), file = sandbox.url("a/b/y")
        let read = try await mover.coordinate(
            writingItemAt: folder, options: .forMoving, writingItemAt: destination,
            byAsyncAccessor: { old, new -> Task<URL, any Error> in
                let read = Task { try await reader.coordinate(readingItemAt: file, byAsyncAccessor: { $0 }) }
                while reader.blockedCallCount == 0 { await Task.yield() }
                try FileManager.default.moveItem(at: old, to: new)
                try mover.item(at: old, didMoveTo: new)
                return read
            })
        let received = try await read.value
        #expect(received.path == sandbox.url("c/b2/y").resolvingSymlinksInPath().path)
        #expect(try String(contentsOf: received, encoding: .utf8) == "entry\n")
    }

    /// A claim on more items than lock files it holds looks for a move in those lock files
    /// first, and at the items only if it finds one (`Session.followMoves`).
    @Test("a waiting claim on many files without lock files of their own follows their folder's move")
    func groupReadFollowsFolderMove() async throws {
        let sandbox = try Sandbox()
        let names = (0..<20).map { "f\($0)" }
        for name in names { try Data("entry \(name)\n".utf8).write(to: sandbox.url("a/b/" + name)) }
        let files = names.map { sandbox.url("a/b/" + $0) }
        let mover = try FileCoordinator(lockDirectory: sandbox.locks)
        let reader = try FileCoordinator(lockDirectory: sandbox.locks)
        let read = try await mover.coordinate(
            writingItemAt: sandbox.url("a/b"), options: .forMoving, writingItemAt: sandbox.url("c/b2"),
            byAsyncAccessor: { old, new -> Outcome in
                let read = Outcome.onThread {
                    try reader.coordinate(readingItemsAt: files, options: .withoutCreatingLockFiles) { urls in
                        for (url, name) in zip(urls, names) where try String(contentsOf: url, encoding: .utf8) != "entry \(name)\n" {
                            throw CoordinationError(code: .init("wrong content"), message: "\(url.path) holds something else")
                        }
                    }
                }
                while reader.blockedCallCount == 0 { await Task.yield() }
                try FileManager.default.moveItem(at: old, to: new)
                try mover.item(at: old, didMoveTo: new)
                return read
            })
        #expect(read.wait() == nil, "every file read at its new path")
    }

    @Test("a move recorded before the call started is not followed")
    func oldMovesAreIgnored() throws {
        let sandbox = try Sandbox()
        let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
        let old = sandbox.url("c/w"), new = sandbox.url("c/w2")
        try coordinator.coordinate(writingItemAt: old, options: .forMoving, writingItemAt: new) { old, new in
            try FileManager.default.moveItem(at: old, to: new)
            try coordinator.item(at: old, didMoveTo: new)
        }
        let received = try coordinator.coordinate(writingItemAt: old) { $0 }
        #expect(received == old)
    }

    @Test("a path and its folders, deepest first")
    func ancestors() {
        let path = ItemPath(canonicalBytes: Array("/a/b".utf8))
        #expect(path.selfAndAncestors.map(\.description) == ["/a/b", "/a", "/"])
        #expect(ItemPath(canonicalBytes: [UInt8(ascii: "/")]).selfAndAncestors.map(\.description) == ["/"])
    }
}
