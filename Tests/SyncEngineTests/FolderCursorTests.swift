import Foundation
import Glibc
import RawPaths
import TestSupport
import Testing

@testable import SyncEngine

/// `FolderCursor` opens files below its root through no symlink, keeping the folder of the
/// last file open for the next.
@Suite struct FolderCursorTests {
    let scratch = Scratch()
    var root: String { scratch.path + "/root" }

    init() throws {
        for folder in ["root/a", "root/b", "outside"] {
            try FileManager.default.createDirectory(atPath: scratch.path + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["root/top", "root/a/1", "root/a/2", "root/b/1", "outside/1"] {
            #expect(FileManager.default.createFile(atPath: scratch.path + "/" + file, contents: Data(file.utf8)))
        }
    }

    func text(_ relative: RawPath, through cursor: FolderCursor) throws -> String {
        let fd = try cursor.open(relative, O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }

    @Test func filesOfSeveralFoldersInTurnAreEachTheRightOne() throws {
        let cursor = FolderCursor(root: RawPath(root))
        for relative in ["a/1", "a/2", "b/1", "top", "a/1"] {
            #expect(try text(RawPath(relative), through: cursor) == "root/" + relative)
        }
        #expect(cursor.signature("a/2")?.size == Int64("root/a/2".utf8.count))
        #expect(cursor.signature("a/missing") == nil)
    }

    @Test func aFolderThatIsALinkLeadsNowhereAndTheErrorNamesThePath() throws {
        #expect(symlink(scratch.path + "/outside", root + "/link") == 0)
        let cursor = FolderCursor(root: RawPath(root))
        let error = try #require(throws: SyncError.self) { try text("link/1", through: cursor) }
        #expect("\(error)".contains(root + "/link/1"), "\(error)")
        #expect(cursor.signature("link/1") == nil)
        // A link as the file itself is not followed either.
        #expect(symlink(scratch.path + "/outside/1", root + "/a/l") == 0)
        #expect(throws: SyncError.self) { try text("a/l", through: cursor) }
    }

    /// The folder kept open is the folder it opened: replaced by a link after that, it does
    /// not lead the next open out of the root.
    @Test func aKeptFolderSwappedForALinkDoesNotLeadOutside() throws {
        let cursor = FolderCursor(root: RawPath(root))
        #expect(try text("a/1", through: cursor) == "root/a/1")
        #expect(rename(root + "/a", root + "/a-moved") == 0)
        #expect(symlink(scratch.path + "/outside", root + "/a") == 0)
        #expect(try text("a/1", through: cursor) == "root/a/1")
        #expect(throws: SyncError.self) { try text("b/../a/1", through: FolderCursor(root: RawPath(root))) }
    }

    /// Hashing a file for sync leaves its access time as it was, where a plain read sets
    /// it (relatime: the access time was older than the change).
    @Test func hashingForSyncLeavesTheAccessTime() throws {
        for file in ["a/1", "a/2"] { #expect(AccessTime.makeStale(root + "/" + file)) }
        let cursor = FolderCursor(root: RawPath(root))
        _ = try text("a/1", through: cursor)
        try #require(AccessTime.seconds(root + "/a/1") != AccessTime.stale, "a plain read sets the access time here (not a noatime mount)")
        let content = try ContentHashing.hash("a/2", through: cursor, refusingWriters: false)
        #expect(content.size == Int64("root/a/2".utf8.count))
        #expect(AccessTime.seconds(root + "/a/2") == AccessTime.stale)
    }

    @Test func aMissingRootFailsEachOpenWithItsPath() throws {
        let cursor = FolderCursor(root: RawPath(scratch.path + "/gone"))
        let error = try #require(throws: SyncError.self) { try text("a/1", through: cursor) }
        #expect("\(error)".contains("/gone/a/1"), "\(error)")
    }
}
