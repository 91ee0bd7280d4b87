import SyncPlanning
import Testing

/// Folder `d` holding `d/x` was synced everywhere; then another device (C) replaced `d`
/// (by a link, a file, or nothing) and deleted `d/x`. What this device plans depends on
/// whether anything is still in `d` once its plan is done.
struct OccupiedFolderCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// What C put at `d`.
    var replacement: EntryState?
    /// This device's `d/x` and anything else it holds below `d`.
    var localInside: [String: EntryState]
    /// A third device's edit of `d/x`, concurrent with C's deletion of it.
    var editedElsewhere: Bool
    /// Whether `d` is published again as a folder (else C's replacement is applied).
    var keepsTheFolder: Bool
    var testDescription: String { name }
}

@Suite("A folder that something inside outlives comes back")
struct OccupiedFoldersTests {
    typealias F = Fixture
    static let folder = F.record(F.id("A", 1), .folder(), path: "d")
    static let file = F.record(F.id("A", 2), F.a, path: "d/x")
    static let fileDeleted = F.record(F.id("C", 2), nil, parents: [file.id], time: 3_000, path: "d/x")
    static let fileEdited = F.record(F.id("B", 1), F.b, parents: [file.id], time: 2_000, path: "d/x")

    static let cases: [OccupiedFolderCase] = [
        .init(name: "nothing left inside: the link replaces the folder", replacement: .symlink(to: "/elsewhere"),
              localInside: ["d/x": F.a], editedElsewhere: false, keepsTheFolder: false),
        .init(name: "nothing left inside: the file replaces the folder", replacement: F.c,
              localInside: ["d/x": F.a], editedElsewhere: false, keepsTheFolder: false),
        .init(name: "nothing left inside: the folder goes", replacement: nil,
              localInside: ["d/x": F.a], editedElsewhere: false, keepsTheFolder: false),
        .init(name: "an edit here, not yet published", replacement: .symlink(to: "/elsewhere"),
              localInside: ["d/x": F.b], editedElsewhere: false, keepsTheFolder: true),
        .init(name: "an edit made elsewhere wins against the deletion", replacement: .symlink(to: "/elsewhere"),
              localInside: ["d/x": F.a], editedElsewhere: true, keepsTheFolder: true),
        .init(name: "a new file here, in a folder deleted elsewhere", replacement: nil,
              localInside: ["d/x": F.a, "d/new": F.c], editedElsewhere: false, keepsTheFolder: true),
        .init(name: "a new folder here, in a folder made a file elsewhere", replacement: F.c,
              localInside: ["d/x": F.a, "d/sub": .folder()], editedElsewhere: false, keepsTheFolder: true),
        .init(name: "a new file here whose name starts with a combining mark", replacement: nil,
              localInside: ["d/x": F.a, "d/\u{301}new": F.c], editedElsewhere: false, keepsTheFolder: true),
    ]

    @Test(arguments: cases)
    func plan(_ row: OccupiedFolderCase) {
        let replaced = F.record(F.id("C", 1), row.replacement, parents: [Self.folder.id], time: 3_000, path: "d")
        let fileHistory = row.editedElsewhere
            ? F.history(Self.file, Self.fileDeleted, Self.fileEdited) : F.history(Self.file, Self.fileDeleted)
        let trees = SyncTrees(
            local: ["d": .folder()].merging(row.localInside) { $1 },
            base: ["d": BaseEntry(version: Self.folder.id, state: .folder()), "d/x": BaseEntry(version: Self.file.id, state: F.a)],
            histories: ["d": F.history(Self.folder, replaced), "d/x": fileHistory])
        let plan = SyncPlan(trees)
        let actions = plan.actions
        let atFolder = actions.first { $0.path == "d" }

        if row.keepsTheFolder {
            #expect(atFolder == .publish(path: "d", state: .folder(), parents: [replaced.id]))
            // A link or file the folder is published over is copied beside it; nothing, for nothing.
            #expect(plan.keptBeside == (row.replacement == nil ? [] : [replaced]))
        } else {
            #expect(plan.keptBeside.isEmpty)
            #expect(atFolder == .apply(version: replaced, expectedLocal: .folder()))
            // Only an empty folder can be replaced: what was inside goes first.
            #expect(actions.last?.path == "d", "\(actions.map(\.path))")
        }
    }

    /// A scoped pass knows nothing of what it did not scan: it does not bring a folder back
    /// on a guess from the base (the replacement into a folder still full only fails).
    @Test func whatThePassDidNotScanKeepsNoFolder() {
        let replaced = F.record(F.id("C", 1), .symlink(to: "/elsewhere"), parents: [Self.folder.id], time: 3_000, path: "d")
        let trees = SyncTrees(
            local: ["d": .folder()],
            base: ["d": BaseEntry(version: Self.folder.id, state: .folder()), "d/x": BaseEntry(version: Self.file.id, state: F.a)],
            histories: ["d": F.history(Self.folder, replaced), "d/x": F.history(Self.file)])
        #expect(SyncPlan(trees, paths: ["d"]).actions == [.apply(version: replaced, expectedLocal: .folder())])
    }
}
