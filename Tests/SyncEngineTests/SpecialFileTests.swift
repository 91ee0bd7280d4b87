import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// FIFOs, sockets and device files are not carried. One that takes a synced file's place
/// is said, and its path left alone until it is gone.
@Suite struct SpecialFileTests {
    @Test func aFifoInASyncedFilesPlaceIsSaidAndTheEditElsewhereWaits() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try a.write("x", "first")
        a.sync()
        b.sync()
        unlink(a.documents + "/x")
        #expect(mkfifo(a.documents + "/x", 0o644) == 0)
        try b.write("x", "edited on b")
        b.sync()
        let report = a.sync()

        #expect(report.problems.contains { $0.contains("Documents/x is a FIFO") }, "\(report.problems)")
        #expect(b.read("x") == "edited on b")

        unlink(a.documents + "/x")  // gone: the edit arrives
        a.sync()
        #expect(a.read("x") == "edited on b")
    }

    @Test func aNewFifoIsNotCarriedAndNotSaid() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        #expect(mkfifo(a.documents + "/pipe", 0o644) == 0)
        let report = a.sync()
        b.sync()

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree().isEmpty)
    }
}
