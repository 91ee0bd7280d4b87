import SyncPlanning
import Testing

/// Device B renamed a folder, published as ubqd publishes it: each file's arrival names the
/// path it left, folders and links are made anew, every old path is deleted. This device
/// held everything `synced` and has not changed it.
struct FolderRename {
    typealias F = Fixture
    var local: [String: EntryState]
    var base: [String: BaseEntry] = [:]
    var records: [VersionRecord] = []

    init(synced: [String: EntryState], renaming from: String, to: String, arriving arrival: (String, EntryState) -> EntryState = { $1 }) {
        local = synced
        var sequence: UInt64 = 0
        for (path, state) in synced.sorted(by: { $0.key < $1.key }) {
            sequence += 1
            let record = F.record(F.id("A", sequence), state, path: path)
            records.append(record)
            base[path] = BaseEntry(version: record.id, state: state)
            guard let rest = path == from ? "" : path.below(from).map({ "/" + $0 }) else { continue }
            let movedFrom = state.kind == .file ? path : nil
            records.append(VersionRecord(
                id: F.id("B", sequence * 2), path: to + rest, parents: [], state: arrival(to + rest, state), time: 2_000, movedFrom: movedFrom))
            records.append(F.record(F.id("B", sequence * 2 + 1), nil, parents: [record.id], time: 2_000, path: path))
        }
    }

    var trees: SyncTrees { Rename.trees(local: local, base: base, records: records) }
}

@Suite("SyncPlan: a folder renamed on another device, renamed whole here")
struct FolderMoveTests {
    typealias F = Fixture
    static let synced: [String: EntryState] = [
        "Documents/a": .folder(), "Documents/a/x.txt": F.a, "Documents/a/sub": .folder(), "Documents/a/sub/y.txt": F.b,
        "Documents/a/link": .symlink(to: "x.txt"), "Documents/c": .folder(), "Documents/other.txt": F.c,
    ]
    static let items = ["link", "sub", "sub/y.txt", "x.txt"]

    @Test func aRenamedFolderMovesWithEverythingInIt() {
        let plan = SyncPlan(FolderRename(synced: Self.synced, renaming: "Documents/a", to: "Documents/b").trees)
        #expect(plan.folderMoves == [FolderMove(from: "Documents/a", to: "Documents/b", items: Self.items)], "one move: the inner folder goes with it")
        #expect(Set(plan.actions.map(\.path)) == Set(plan.folderMoves[0].paths), "the actions stay, for the move to do their work")
    }

    /// Each file's path ends alike at both ends from the folder `a` up: the move is the
    /// folder's, not one of `Documents` into `Documents/c`.
    @Test func aFolderMovedIntoAnotherKeepingItsName() {
        let plan = SyncPlan(FolderRename(synced: Self.synced, renaming: "Documents/a", to: "Documents/c/a").trees)
        #expect(plan.folderMoves == [FolderMove(from: "Documents/a", to: "Documents/c/a", items: Self.items)])
    }

    @Test func aFolderRenamedInsideTheRenamedFolderMovesAlone() {
        var rename = FolderRename(synced: Self.synced, renaming: "Documents/a", to: "Documents/b")
        rename.records = rename.records.map { record in
            var record = record
            if let rest = record.path.below("Documents/b/sub") { record.path = "Documents/b/renamed/" + rest }
            if record.path == "Documents/b/sub" { record.path = "Documents/b/renamed" }
            return record
        }
        let plan = SyncPlan(rename.trees)
        #expect(plan.folderMoves == [FolderMove(from: "Documents/a/sub", to: "Documents/b/renamed", items: ["y.txt"])])
    }

    /// What the rename does not hold whole is renamed item by item; a folder inside that
    /// moved whole still moves whole.
    static let itemByItem: [(String, FolderRename, [FolderMove])] = {
        let rename = { (arrival: @escaping (String, EntryState) -> EntryState) in
            FolderRename(synced: synced, renaming: "Documents/a", to: "Documents/b", arriving: arrival)
        }
        let inner = [FolderMove(from: "Documents/a/sub", to: "Documents/b/sub", items: ["y.txt"])]
        var madeHere = rename { $1 }
        madeHere.local["Documents/a/new.txt"] = F.c
        var editedHere = rename { $1 }
        editedHere.local["Documents/a/x.txt"] = F.c
        var occupied = rename { $1 }
        occupied.local["Documents/b"] = .folder()
        var copied = rename { $1 }
        copied.records = copied.records.map { var record = $0; record.movedFrom = nil; return record }
        var readOnly = FolderRename(
            synced: synced.merging(["Documents/a/sub": .folder(mode: 0o555)]) { $1 }, renaming: "Documents/a", to: "Documents/b")
        readOnly.local["Documents/a/sub"] = .folder(mode: 0o555)
        return [
            ("a file made here since", madeHere, inner),
            ("a file edited here since", editedHere, inner),
            ("a folder already at the new path here", occupied, inner),
            ("the folder's mode changed with the rename", rename { $0 == "Documents/b" ? .folder(mode: 0o700) : $1 }, inner),
            ("a file's content changed with the rename", rename { $0 == "Documents/b/x.txt" ? F.c : $1 }, inner),
            ("the files were copied, not moved", copied, []),
            ("a folder inside is read-only", readOnly, []),
        ]
    }()

    @Test(arguments: itemByItem.map(\.0))
    func theFolderIsRenamedItemByItemWhenItIsNotTheSame(_ name: String) throws {
        let (_, rename, expected) = try #require(Self.itemByItem.first { $0.0 == name })
        #expect(SyncPlan(rename.trees).folderMoves == expected)
    }
}
