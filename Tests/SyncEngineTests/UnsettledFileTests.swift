import Foundation
import RawPaths
import Testing

/// A file changed less than the quiet period ago may still be being written (DESIGN.md,
/// decision 2): a pass leaves it, and everything it would plan for it, to a later pass.
@Suite("A file written a moment ago waits for a later pass")
struct UnsettledFileTests {
    @Test func itIsNeitherPublishedNorTakenForDeleted() throws {
        let scratch = Scratch()
        let a = try TestDevice("a", in: scratch.path, mirror: scratch.path + "/mirror", quietMilliseconds: 600_000)
        let b = try TestDevice("b", in: scratch.path, mirror: scratch.path + "/mirror")
        try a.write("doc.txt", "first")
        try a.write("other.txt", "other")
        a.sync(settled: true)
        b.sync()
        #expect(b.read("doc.txt") == "first")

        try a.write("doc.txt", "second")  // changed now: ten minutes from settled
        let report = a.sync()
        b.sync()

        #expect(report.deferred.contains(RawPath("Documents/doc.txt")), "\(report.deferred)")
        #expect(b.read("doc.txt") == "first", "neither the new content nor a deletion reached b")
        #expect(b.read("other.txt") == "other", "other.txt, written a moment ago too, is not deleted either")

        a.sync(settled: true)  // `ubq sync`: what changed a moment ago need not wait
        b.sync()
        #expect(b.read("doc.txt") == "second")
    }
}
