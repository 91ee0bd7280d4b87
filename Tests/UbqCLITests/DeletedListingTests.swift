import APIModel
import Testing

@testable import UbqCLI

/// `ubq deleted` lists a deleted folder as one row, with what went with it counted there:
/// a folder of a thousand files took a thousand rows.
@Suite struct DeletedListingTests {
    static func item(_ path: String, kind: String = "file", folder: String? = nil, container: String = "iCloud.a") -> DeletedItemInfo {
        let version = VersionInfo(id: "d:1", device: "d", deviceName: "laptop", date: "2026-11-29T15:00:00Z", kind: kind, sha256: nil, size: 3, current: false, conflict: false)
        return DeletedItemInfo(container: container, path: path, deletion: version, lastVersion: version, folder: folder)
    }

    static let items = [
        item("Documents/proj", kind: "folder"),
        item("Documents/proj/README", folder: "Documents/proj"),
        item("Documents/proj/src/main.c", folder: "Documents/proj"),
        item("Documents/alone.txt"),
    ]

    @Test func whatWentWithAFolderIsCountedInItsRow() {
        let listing = DeletedListing(Self.items, below: "")
        #expect(listing.shown.map(\.path) == ["Documents/proj", "Documents/alone.txt"])
        #expect(listing.inside == ["iCloud.a/Documents/proj": 2] && listing.hidden == 2)
        #expect(DeletedCommand.row(listing.shown[0], inside: 2, root: "/r")[3] == "folder, 2 items")
    }

    @Test func theFolderAskedAboutHasItsItemsListed() {
        let listing = DeletedListing(Self.items, below: "Documents/proj")
        #expect(listing.shown.count == 4 && listing.hidden == 0)
    }

    /// The folder an item names is not in the listing (a daemon that lists it elsewhere,
    /// another container): the item is listed.
    @Test func anItemWhoseFolderIsNotListedIsListed() {
        let listing = DeletedListing([Self.item("Documents/proj", kind: "folder", container: "iCloud.b"), Self.item("Documents/proj/x", folder: "Documents/proj")], below: "")
        #expect(listing.shown.count == 2)
    }
}
