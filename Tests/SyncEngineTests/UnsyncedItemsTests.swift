import Foundation
import Glibc
import RawPaths
import Testing

@testable import SyncEngine

/// An item sync leaves out until the user changes it (here a name that is not UTF-8) stays
/// in the status while it stays as it is. Most passes look only at what just changed: the
/// status showed it after a pass over everything and dropped it at the next edit elsewhere,
/// so `ubq status` said "up to date" with a file never synced.
@Suite struct UnsyncedItemsTests {
    static let latin1 = RawPath(bytes: Array("Documents/caf".utf8) + [0xE9] + Array(".txt".utf8))  // "café.txt" in Latin-1

    @Test func aNameThatIsNotUTF8StaysInTheStatusUntilItIsRenamed() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        let container = RawPath(a.root).appending(TestDevice.containerID.folderName)
        let bad = container.appending(Self.latin1)
        let fd = bad.withCString { creat($0, 0o644) }
        try #require(fd >= 0)
        close(fd)
        try a.write("other.txt", "first")
        a.sync()
        #expect(Self.unsyncedNames(a) == 1)

        try a.write("other.txt", "edited")
        a.sync(changed: ["Documents/other.txt"])
        #expect(Self.unsyncedNames(a) == 1, "still there, still said")
        #expect(a.engine.status().first?.notSynced == 1, "and counted")

        let renamed = container.appending("Documents/cafe.txt")
        #expect(bad.withCString { from in renamed.withCString { rename(from, $0) } } == 0)
        a.sync(changed: [Self.latin1, "Documents/cafe.txt"])
        #expect(Self.unsyncedNames(a) == 0, "\(a.engine.status().first?.problems ?? [])")
        #expect(a.engine.status().first?.notSynced == nil)
    }

    @Test func aScanOfSomeFoldersReplacesWhatWasKnownInThemOnly() {
        var items = UnsyncedItems()
        items.replace(within: nil, with: ["Documents/a/x": "x", "Documents/ab": "ab", "Documents/b/y": "y"])
        items.replace(within: ["Documents/a", "Documents/b/y"], with: ["Documents/a/z": "z"])
        #expect(items.reasons == ["Documents/a/z": "z", "Documents/ab": "ab"])
        items.replace(within: nil, with: [:])
        #expect(items.reasons.isEmpty)
    }

    static func unsyncedNames(_ device: TestDevice) -> Int {
        (device.engine.status().first?.problems ?? []).count { $0.contains("is not valid UTF-8") }
    }
}
