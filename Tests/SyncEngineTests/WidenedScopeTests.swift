import Foundation
import RawPaths
import Testing
@testable import SyncEngine

/// A scoped pass looks at what changed here and what other devices changed. When those
/// are many more than the base holds (another device's first sync), it looks at
/// everything instead: one walk, not a few lookups for each path.
@Suite("A scoped pass that meets many remote changes")
struct WidenedScopeTests {
    @Test func aFewRemoteChangesKeepThePassScoped() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        for n in 0..<10 { try a.write("f\(n).txt", "\(n)") }
        a.sync()
        let report = b.sync(changed: [])
        #expect(report.applied == 10)
        #expect(report.indexState?.limitedTo?.count == 11, "what a published (Documents and ten files), and only that")
        #expect(!report.lookedAtEverything)
    }

    @Test func manyMoreRemoteChangesThanTheBaseHoldsMakeItLookAtEverything() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let count = SyncPass.largestScope + 1
        for n in 0..<count { try a.write("d\(n % 50)/f\(n).txt", "\(n)") }
        a.sync()
        let report = b.sync(changed: [])
        #expect(report.indexState != nil && report.indexState?.limitedTo == nil, "a state for the whole container")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree() == a.tree())
        #expect(report.lookedAtEverything, "the daemon then lets go of the memory the pass held")
    }

    /// A pass that looks at everything checks the whole view, as a full pass does: an entry
    /// no version names goes.
    @Test func aWidenedPassRepairsTheView() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        b.sync()
        let stray = b.view + "/Documents/stray.txt"
        try Data("stray".utf8).write(to: URL(fileURLWithPath: stray))
        for n in 0...SyncPass.largestScope { try a.write("d\(n % 50)/f\(n).txt", "\(n)") }
        a.sync()
        let report = b.sync(changed: [])
        #expect(report.lookedAtEverything)
        #expect(!FileManager.default.fileExists(atPath: stray))
        let (view, tree) = (b.viewTree(), b.tree())
        #expect(view.count == tree.count && view == tree, "the view shows what the device holds, \(view.count) entries for \(tree.count)")
    }
}
