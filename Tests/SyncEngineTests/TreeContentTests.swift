import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// What a tree holds besides files' content (issue 7, "Everything a tree holds"): mode
/// bits, empty folders and symbolic links, each kept as it is on every device.
@Suite("Modes, empty folders and links travel")
struct TreeContentTests {
    @Test func modeBitsTravelAndAModeOnlyChangeIsAChange() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("run.sh", "#!/bin/sh\n")
        #expect(chmod(a.documents + "/run.sh", 0o775) == 0)  // group-writable: the umask would take that away
        a.sync()
        b.sync()
        #expect(try Self.mode(b.documents + "/run.sh") == 0o775)

        #expect(chmod(a.documents + "/run.sh", 0o700) == 0)  // the content stays the same
        a.sync()
        b.sync()
        #expect(try Self.mode(b.documents + "/run.sh") == 0o700)
        #expect(b.read("run.sh") == "#!/bin/sh\n")
    }

    @Test func anEmptyFolderTravelsAndSoDoesItsRemoval() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try FileManager.default.createDirectory(atPath: a.documents + "/empty/deeper", withIntermediateDirectories: true)
        a.sync()
        b.sync()
        #expect(b.tree() == ["empty": "<folder>", "empty/deeper": "<folder>"])

        try FileManager.default.removeItem(atPath: a.documents + "/empty")
        a.sync(confirmDeletes: true)
        b.sync()
        #expect(b.tree().isEmpty)
    }

    @Test func aLinkTravelsAsALinkWithItsTextAsWritten() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("target.txt", "target")
        for (name, text) in [("relative", "target.txt"), ("dangling", "../no/such/thing"), ("absolute", "/etc/hostname")] {
            try FileManager.default.createSymbolicLink(atPath: a.documents + "/" + name, withDestinationPath: text)
        }
        a.sync()
        b.sync()
        #expect(b.tree() == a.tree())
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: b.documents + "/dangling") == "../no/such/thing")
        #expect(b.tree()["absolute"] == "-> /etc/hostname", "a link is not followed: no copy of what it leads to")
    }

    private static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
}
