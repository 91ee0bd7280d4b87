import SyncPlanning
import Testing

/// Fixtures: three contents, and versions made by two devices.
enum Fixture {
    static let a = EntryState.file(sha256: "aa", size: 1)
    static let b = EntryState.file(sha256: "bb", size: 2)
    static let c = EntryState.file(sha256: "cc", size: 3)
    static let path = "Documents/note.txt"

    static func id(_ device: String, _ sequence: UInt64) -> VersionID { VersionID(device: device, sequence: sequence) }

    static func record(_ id: VersionID, _ state: EntryState?, parents: [VersionID] = [], time: Int64 = 1_000, path: String = path) -> VersionRecord {
        VersionRecord(id: id, path: path, parents: parents, state: state, time: time)
    }

    static func history(_ records: VersionRecord...) -> PathHistory {
        var history = PathHistory(path: records.first?.path ?? path)
        for record in records { history.add(record) }
        return history
    }

    static let v0 = record(id("A", 1), a)  // the version both trees agreed on
    static let bOnB = record(id("B", 1), b, parents: [v0.id], time: 2_000)  // edited elsewhere
    static let deletedOnB = record(id("B", 1), nil, parents: [v0.id], time: 2_000)
    static let cOnC = record(id("C", 1), c, parents: [v0.id], time: 3_000)  // concurrent with bOnB, later
    static let agreed = BaseEntry(version: v0.id, state: a)
    static let cAfterB = record(id("C", 2), c, parents: [bOnB.id], time: 4_000)  // edited after bOnB
    static let remadeAfterDeletion = record(id("C", 2), c, parents: [deletedOnB.id], time: 4_000)
    static let mergedAfterBoth = record(id("D", 1), a, parents: [bOnB.id, cOnC.id], time: 5_000)
    static let bTwinOnC = record(id("C", 3), b, parents: [v0.id], time: 2_500)  // bOnB's edit, made on C at once
    static let baseIsB = BaseEntry(version: bOnB.id, state: b)
}

/// One row: the three trees at one path, and what the planner must do.
struct PlannerCase: CustomTestStringConvertible, Sendable {
    var name: String
    var local: EntryState?
    var base: BaseEntry?
    var history: PathHistory?
    var expected: SyncAction?
    var testDescription: String { name }
}

@Suite("Planner: local × base × mirror")
struct PlannerTests {
    static let cases: [PlannerCase] = {
        typealias F = Fixture
        let p = F.path
        return [
            PlannerCase(name: "nothing anywhere", local: nil, base: nil, history: nil, expected: nil),
            PlannerCase(name: "in sync", local: F.a, base: F.agreed, history: F.history(F.v0), expected: nil),
            PlannerCase(
                name: "new local file, mirror never had it", local: F.a, base: nil, history: nil,
                expected: .publish(path: p, state: F.a, parents: [])),
            PlannerCase(
                name: "local edit, mirror unchanged", local: F.b, base: F.agreed, history: F.history(F.v0),
                expected: .publish(path: p, state: F.b, parents: [F.v0.id])),
            PlannerCase(
                name: "local delete, mirror unchanged", local: nil, base: F.agreed, history: F.history(F.v0),
                expected: .publish(path: p, state: nil, parents: [F.v0.id])),
            PlannerCase(
                name: "new in mirror, absent here", local: nil, base: nil, history: F.history(F.v0),
                expected: .apply(version: F.v0, expectedLocal: nil)),
            PlannerCase(
                name: "edited in mirror, unchanged here", local: F.a, base: F.agreed, history: F.history(F.v0, F.bOnB),
                expected: .apply(version: F.bOnB, expectedLocal: F.a)),
            PlannerCase(
                name: "deleted in mirror, unchanged here", local: F.a, base: F.agreed, history: F.history(F.v0, F.deletedOnB),
                expected: .apply(version: F.deletedOnB, expectedLocal: F.a)),
            PlannerCase(
                name: "both made the same edit", local: F.b, base: F.agreed, history: F.history(F.v0, F.bOnB),
                expected: .adopt(path: p, version: F.bOnB.id, state: F.b)),
            PlannerCase(
                name: "both deleted", local: nil, base: F.agreed, history: F.history(F.v0, F.deletedOnB),
                expected: .adopt(path: p, version: F.deletedOnB.id, state: nil)),
            PlannerCase(
                name: "concurrent edits: the local one is published first, as a sibling",
                local: F.c, base: F.agreed, history: F.history(F.v0, F.bOnB),
                expected: .publish(path: p, state: F.c, parents: [F.v0.id])),
            PlannerCase(
                name: "local edit against a delete in the mirror: published, then the edit wins",
                local: F.b, base: F.agreed, history: F.history(F.v0, F.deletedOnB),
                expected: .publish(path: p, state: F.b, parents: [F.v0.id])),
            PlannerCase(
                name: "local delete against an edit in the mirror: published, then the edit wins",
                local: nil, base: F.agreed, history: F.history(F.v0, F.bOnB),
                expected: .publish(path: p, state: nil, parents: [F.v0.id])),
            PlannerCase(
                name: "after publishing a concurrent edit, the later head wins here too",
                local: F.b, base: BaseEntry(version: F.bOnB.id, state: F.b), history: F.history(F.v0, F.bOnB, F.cOnC),
                expected: .apply(version: F.cOnC, expectedLocal: F.b)),
            PlannerCase(
                name: "created on both sides independently, different content",
                local: F.b, base: nil, history: F.history(F.v0),
                expected: .publish(path: p, state: F.b, parents: [])),
            PlannerCase(
                name: "created on both sides independently, same content", local: F.a, base: nil, history: F.history(F.v0),
                expected: .adopt(path: p, version: F.v0.id, state: F.a)),
            PlannerCase(
                name: "mirror lost the path: published again, nothing deleted", local: F.a, base: F.agreed, history: nil,
                expected: .publish(path: p, state: F.a, parents: [])),
            PlannerCase(
                name: "mirror lost the base's version and has only older ones (a log cut or restored): published again on top",
                local: F.b, base: F.baseIsB, history: F.history(F.v0), expected: .publish(path: p, state: F.b, parents: [F.v0.id])),
            PlannerCase(
                name: "the same for a deletion the mirror lost", local: nil, base: BaseEntry(version: F.deletedOnB.id, state: nil),
                history: F.history(F.v0), expected: .publish(path: p, state: nil, parents: [F.v0.id])),
            PlannerCase(
                name: "the base's version is lost, but a later one names it: that one is newer",
                local: F.b, base: F.baseIsB, history: F.history(F.v0, F.cAfterB), expected: .apply(version: F.cAfterB, expectedLocal: F.b)),
            PlannerCase(
                name: "recorded deletion, still absent, mirror agrees", local: nil,
                base: BaseEntry(version: F.deletedOnB.id, state: nil), history: F.history(F.v0, F.deletedOnB), expected: nil),
            PlannerCase(
                name: "mode change alone is a change", local: .file(sha256: "aa", size: 1, mode: 0o755), base: F.agreed,
                history: F.history(F.v0), expected: .publish(path: p, state: .file(sha256: "aa", size: 1, mode: 0o755), parents: [F.v0.id])),
            PlannerCase(
                name: "a new modification time alone (a touch) is no change",
                local: .file(sha256: "aa", size: 1, modified: 1_557_032_705_123_456_789), base: F.agreed, history: F.history(F.v0),
                expected: nil),
            PlannerCase(
                name: "file replaced by a folder here", local: .folder(), base: F.agreed, history: F.history(F.v0),
                expected: .publish(path: p, state: .folder(), parents: [F.v0.id])),
            PlannerCase(
                name: "a crash left a download on disk, its base unrecorded, and the mirror moved on",
                local: F.b, base: F.agreed, history: F.history(F.v0, F.bOnB, F.cAfterB),
                expected: .apply(version: F.cAfterB, expectedLocal: F.b)),
            PlannerCase(
                name: "the same for a downloaded deletion, the file made again since",
                local: nil, base: F.agreed, history: F.history(F.v0, F.deletedOnB, F.remadeAfterDeletion),
                expected: .apply(version: F.remadeAfterDeletion, expectedLocal: nil)),
            PlannerCase(
                name: "going back to a version older than the base is a change",
                local: F.a, base: BaseEntry(version: F.bOnB.id, state: F.b), history: F.history(F.v0, F.bOnB),
                expected: .publish(path: p, state: F.a, parents: [F.bOnB.id])),
            PlannerCase(
                name: "a version on a line that does not start at the base is a change",
                local: F.b, base: BaseEntry(version: F.cOnC.id, state: F.c), history: F.history(F.v0, F.bOnB, F.cOnC, F.mergedAfterBoth),
                expected: .publish(path: p, state: F.b, parents: [F.cOnC.id])),
            PlannerCase(
                name: "a deletion replaces the base's twin too (the same edit made on two devices at once)",
                local: nil, base: F.baseIsB, history: F.history(F.v0, F.bOnB, F.bTwinOnC),
                expected: .publish(path: p, state: nil, parents: [F.bOnB.id, F.bTwinOnC.id])),
            PlannerCase(
                name: "an edit replaces the base's twin too", local: F.c, base: F.baseIsB, history: F.history(F.v0, F.bOnB, F.bTwinOnC),
                expected: .publish(path: p, state: F.c, parents: [F.bOnB.id, F.bTwinOnC.id])),
            PlannerCase(
                name: "symlink from the mirror", local: nil, base: nil,
                history: F.history(F.record(F.id("B", 3), .symlink(to: "../../etc/passwd"))),
                expected: .apply(version: F.record(F.id("B", 3), .symlink(to: "../../etc/passwd")), expectedLocal: nil)),
        ]
    }()

    @Test(arguments: cases)
    func plansTheExpectedAction(_ row: PlannerCase) {
        let action = Planner.plan(path: Fixture.path, local: row.local, base: row.base, history: row.history)
        #expect(action == row.expected)
    }

    /// Whatever the trees, applying the plan and planning again must reach a fixed point:
    /// after the action's effect the planner has nothing more to do (for the paths where
    /// the mirror holds a single head).
    @Test(arguments: cases)
    func convergesAfterItsAction(_ row: PlannerCase) {
        guard let action = Planner.plan(path: Fixture.path, local: row.local, base: row.base, history: row.history) else { return }
        var history = row.history ?? PathHistory(path: Fixture.path)
        var local = row.local
        var base = row.base
        switch action {
        case .publish(let path, let state, let parents, _):
            let record = Fixture.record(Fixture.id("ME", 9), state, parents: parents, time: 9_000, path: path)
            history.add(record)
            base = BaseEntry(version: record.id, state: state)
        case .apply(let version, _):
            local = version.state
            base = BaseEntry(version: version.id, state: version.state)
        case .adopt(_, let version, let state):
            base = BaseEntry(version: version, state: state)
        case .follow, .relocate, .land:
            Issue.record("the per-path planner does not follow renames (SyncPlan does)")
            return
        }
        var next = Planner.plan(path: Fixture.path, local: local, base: base, history: history)
        if case .apply(let version, _)? = next {  // a concurrent head won: take it, then rest
            local = version.state
            base = BaseEntry(version: version.id, state: version.state)
            next = Planner.plan(path: Fixture.path, local: local, base: base, history: history)
        }
        #expect(next == nil, "\(row.name): still \(String(describing: next))")
    }
}
