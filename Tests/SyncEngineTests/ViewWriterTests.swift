import Dispatch
import Foundation
import Glibc
import RawPaths
import SyncPlanning
import Testing

@testable import SyncEngine

/// Views written in the background (`ViewWriter`, as the daemon writes them): a pass does
/// not wait for its view, `ubq sync` (a settled pass) does, and the view's problems still
/// reach the log and the status.
@Suite struct ViewWriterTests {
    @Test func aPassDoesNotWaitForItsViewWhichIsWrittenAfterIt() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        a.engine.viewWriter = ViewWriter(
            beforeEach: {
                started.signal()
                // Bounded, so that a pass that wrongly waits for its view fails below instead of hanging.
                _ = release.wait(timeout: .now() + .seconds(30))
            },
            report: { _, _ in })
        try a.write("notes/hello.txt", "hello")
        let report = a.sync()
        #expect(report.published >= 1 && report.problems.isEmpty)
        #expect(started.wait(timeout: .now() + .seconds(30)) == .success, "the view update was handed over")
        #expect(a.viewTree().isEmpty, "the pass returned while its view was still being written")
        release.signal()
        a.engine.waitForViews()
        #expect(a.viewTree() == a.tree())
    }

    @Test func aSettledPassReturnsOnlyOnceItsViewIsWritten() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        // A slow writer: the view is a quarter of a second behind the pass that handed it over.
        a.engine.viewWriter = ViewWriter(beforeEach: { _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(250)) }, report: { _, _ in })
        try a.write("one.txt", "1")
        a.sync(settled: true)
        #expect(a.viewTree() == a.tree())
        try a.write("one.txt", "1, edited")
        try a.write("two.txt", "2")
        a.sync(settled: true, changed: [RawPath("Documents/one.txt"), RawPath("Documents/two.txt")])
        #expect(a.viewTree() == ["one.txt": "1, edited", "two.txt": "2"])
    }

    @Test func theProblemsOfAViewWrittenInTheBackgroundReachTheStatus() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        let faults = FaultInjection()
        a.engine.faults = faults
        a.engine.writesViewsInBackground = true
        try a.write("doc.txt", "first")
        a.sync(settled: true)  // (the pass finds out how views link, which needs a link that works)
        faults.fail("link", with: ENOSPC)  // (the writer is idle: the settled pass waited for it)
        try a.write("doc.txt", "synced anyway")
        let report = a.sync()
        #expect(report.published >= 1 && !report.incomplete)
        #expect(!report.problems.contains { $0.contains("mirror view") }, "the pass did not write the view: \(report.problems)")
        a.engine.waitForViews()
        let shown = a.engine.status().first?.problems ?? []
        #expect(shown.contains { $0.contains("mirror view not updated") && $0.contains("No space left") }, "\(shown)")
        faults.stopFailing("link")  // space again: the next full pass writes the view
        #expect(a.sync(settled: true).problems.isEmpty)
        #expect(a.viewTree() == a.tree())
        #expect(a.engine.status().first?.problems == [], "the next view, written whole, cleared them")
    }
}
