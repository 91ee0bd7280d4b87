import Foundation
import Glibc
import RawPaths
import Testing

@testable import SyncEngine

/// FIFOs, sockets and device files are not carried. One that takes a synced file's place
/// is said, and its path left alone until it is gone; a new one is no problem, but the
/// index gives it an UploadingError, not the look of an upload yet to come.
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
        // Not shown as an upload to come: the index says why it is not uploaded.
        let error = report.indexState?.itemErrors[RawPath("Documents/pipe")]
        #expect(error?.contains("Documents/pipe is a FIFO, socket or device file, which sync does not carry") == true, "\(String(describing: error))")
        #expect(report.indexState?.uploading.contains(RawPath("Documents/pipe")) == false)
    }
}
