import APIModel
import PresenterPlanning
import Testing

/// Paths as bytes, messages as short strings: what each presenter is told, in order.
func bytes(_ path: String) -> [UInt8] { Array(path.utf8) }

func presence(_ id: String, pid: Int32 = 200, _ path: String) -> Presence {
    Presence(id: PresenterID(session: "s\(pid)", presenter: id), pid: pid, path: bytes(path))
}

func summary(_ plans: [PresenterPlan]) -> [String: [String]] {
    Dictionary(uniqueKeysWithValues: plans.map { ($0.presence.id.presenter, $0.messages.map(\.description)) })
}

func item(_ path: String, _ access: AccessedItem.Access, _ options: [AccessedItem.Option] = []) -> AccessedItem {
    AccessedItem(rawPath: bytes(path), access: access, options: options)
}

@Suite("Presenters asked before a coordinated access")
struct BeforeAccessTests {
    let presenters = [
        presence("file", "/d/a.txt"), presence("folder", "/d"), presence("other", "/e/b.txt"),
        presence("inside", "/d/sub/c.txt"), presence("sibling", "/d/a.txt.bak"),
    ]

    @Test("a read asks the item's presenter to save then relinquish, and folder presenters above to save")
    func readOfAFile() {
        let plans = AccessPlanner.before([item("/d/a.txt", .reading)], presenters: presenters, leavingOut: nil)
        #expect(summary(plans) == [
            "file": ["savePresentedItemChanges", "relinquishToReader"],
            "folder": ["savePresentedItemChanges"],
        ])
    }

    @Test("a read withoutChanges asks nobody to save")
    func readWithoutChanges() {
        let plans = AccessPlanner.before([item("/d/a.txt", .reading, [.withoutChanges])], presenters: presenters, leavingOut: nil)
        #expect(summary(plans) == ["file": ["relinquishToReader"]])
    }

    @Test("a plain write asks the item's presenter to relinquish to the writer only")
    func plainWrite() {
        let plans = AccessPlanner.before([item("/d/a.txt", .writing)], presenters: presenters, leavingOut: nil)
        #expect(summary(plans) == ["file": ["relinquishToWriter"]])
    }

    @Test("a merging write asks to save first")
    func mergingWrite() {
        let plans = AccessPlanner.before([item("/d/a.txt", .writing, [.forMerging])], presenters: presenters, leavingOut: nil)
        #expect(summary(plans) == ["file": ["savePresentedItemChanges", "relinquishToWriter"], "folder": ["savePresentedItemChanges"]])
    }

    @Test("deleting a folder asks presenters inside it to accommodate the deletion, and the folder's parent presenter the subitem form")
    func deletingAFolder() {
        let plans = AccessPlanner.before([item("/d/sub", .writing, [.forDeleting])], presenters: presenters, leavingOut: nil)
        #expect(summary(plans) == [
            "inside": ["relinquishToWriter", "accommodateDeletion"],
            "folder": ["accommodateSubitemDeletion /d/sub"],
        ])
    }

    @Test("only the presenter the access is made for is left out: the accessing process's others hear")
    func madeForOnePresenter() {
        let all = [presence("mine", pid: 100, "/d/a.txt"), presence("mineToo", pid: 100, "/d/a.txt"), presence("theirs", pid: 300, "/d/a.txt")]
        let mine = PresenterID(session: "s100", presenter: "mine")
        let asked = AccessPlanner.before([item("/d/a.txt", .writing)], presenters: all, leavingOut: mine)
        #expect(asked.map(\.presence.id.presenter) == ["mineToo", "theirs"])
        let told = AccessPlanner.after([item("/d/a.txt", .writing)], asked: asked, presenters: all, leavingOut: mine, outcome: AccessOutcome(
            accessed: true, existedBefore: [bytes("/d/a.txt")], existsAfter: [bytes("/d/a.txt")]))
        #expect(summary(told) == ["mineToo": ["reacquire", "didChange"], "theirs": ["reacquire", "didChange"]])
        #expect(AccessPlanner.before([item("/d/a.txt", .writing)], presenters: all, leavingOut: nil).count == 3, "made for none: everyone")
    }

    @Test("a presenter touched by both items of a read-then-write gets each message once, reads first")
    func twoItems() {
        let plans = AccessPlanner.before(
            [item("/d/a.txt", .reading), item("/d/sub/c.txt", .writing, [.forMerging])], presenters: presenters, leavingOut: nil)
        #expect(summary(plans)["folder"] == ["savePresentedItemChanges"])
        #expect(summary(plans)["inside"] == ["savePresentedItemChanges", "relinquishToWriter"])
        #expect(plans.allSatisfy { $0.isAsked })
    }

    @Test("a name that only shares a prefix is not inside the folder", arguments: ["/d/a.txt.bak", "/da/x"])
    func prefixIsNotAncestor(_ path: String) {
        #expect(PathRelation.of(presented: bytes("/d/a.txt"), accessed: bytes(path)) == nil)
        #expect(PathRelation.of(presented: bytes("/d"), accessed: bytes("/da/x")) == nil)
    }

    @Test("every path is inside the root folder")
    func rootIsAncestor() {
        #expect(PathRelation.of(presented: bytes("/"), accessed: bytes("/a")) == .ancestor)
        #expect(PathRelation.of(presented: bytes("/a/b"), accessed: bytes("/")) == .descendant)
    }
}

@Suite("Presenters told after a coordinated access")
struct AfterAccessTests {
    let presenters = [presence("file", "/d/a.txt"), presence("folder", "/d"), presence("inside", "/d/sub/c.txt")]

    func after(_ items: [AccessedItem], _ outcome: AccessOutcome) -> [String: [String]] {
        let asked = AccessPlanner.before(items, presenters: presenters, leavingOut: nil)
        return summary(AccessPlanner.after(items, asked: asked, presenters: presenters, leavingOut: nil, outcome: outcome))
    }

    @Test("after a write: reacquire then didChange, and the folder presenter hears its subitem changed")
    func writeOfExistingFile() {
        let told = after([item("/d/a.txt", .writing)], AccessOutcome(
            accessed: true, existedBefore: [bytes("/d/a.txt")], existsAfter: [bytes("/d/a.txt")]))
        #expect(told == ["file": ["reacquire", "didChange"], "folder": ["subitemDidChange /d/a.txt"]])
    }

    @Test("a written item that did not exist before appears to the folder presenter")
    func writeCreates() {
        let told = after([item("/d/new.txt", .writing)], AccessOutcome(accessed: true, existsAfter: [bytes("/d/new.txt")]))
        #expect(told == ["folder": ["subitemDidAppear /d/new.txt"]])
    }

    @Test("after a read only the relinquished presenter hears, and only reacquire")
    func readEnds() {
        let told = after([item("/d/a.txt", .reading)], AccessOutcome(accessed: true, existedBefore: [bytes("/d/a.txt")], existsAfter: [bytes("/d/a.txt")]))
        #expect(told == ["file": ["reacquire"]])
    }

    @Test("a recorded move tells the item's presenter and those inside it where they went")
    func move() {
        let outcome = AccessOutcome(accessed: true, moves: [(bytes("/d/sub"), bytes("/e/sub2"))], existedBefore: [bytes("/d/sub")])
        let told = after([item("/d/sub", .writing, [.forMoving])], outcome)
        #expect(told == ["inside": ["reacquire", "didMove /e/sub2/c.txt"], "folder": ["subitemDidMove /d/sub /e/sub2"]])
    }

    @Test("a deletion the presenter accommodated brings only reacquire")
    func deletion() {
        let told = after([item("/d/a.txt", .writing, [.forDeleting])], AccessOutcome(accessed: true, existedBefore: [bytes("/d/a.txt")]))
        #expect(told == ["file": ["reacquire"]])
    }

    @Test("a plain write that removed the item tells its presenter of the deletion")
    func writeThatDeleted() {
        let told = after([item("/d/a.txt", .writing)], AccessOutcome(accessed: true, existedBefore: [bytes("/d/a.txt")]))
        #expect(told == ["file": ["reacquire", "accommodateDeletion"], "folder": ["subitemDidChange /d/a.txt"]])
    }

    @Test("an access that never got its claim only gives back what was relinquished")
    func notAccessed() {
        let told = after([item("/d/a.txt", .writing)], AccessOutcome(accessed: false))
        #expect(told == ["file": ["reacquire"]])
    }

    @Test("a presenter that left after being asked still gets reacquire; one that came meanwhile gets the news")
    func registrationsChangeDuringAccess() {
        let items = [item("/d/a.txt", .writing)]
        let asked = AccessPlanner.before(items, presenters: presenters, leavingOut: nil)
        let now = [presence("late", "/d/a.txt")]
        let told = summary(AccessPlanner.after(
            items, asked: asked, presenters: now, leavingOut: nil,
            outcome: AccessOutcome(accessed: true, existedBefore: [bytes("/d/a.txt")], existsAfter: [bytes("/d/a.txt")])))
        #expect(told["late"] == ["didChange"])
        #expect(told["file"] == ["reacquire", "didChange"])
    }
}

@Suite("Moves told to the destination")
struct MoveDestinationTests {
    @Test("a folder presenter at the destination of a recorded move sees the item appear")
    func destinationFolder() {
        let presenters = [presence("target", "/e")]
        let items = [item("/d/a.txt", .writing, [.forMoving])]
        let outcome = AccessOutcome(accessed: true, moves: [(bytes("/d/a.txt"), bytes("/e/a.txt"))], existedBefore: [bytes("/d/a.txt")])
        let told = AccessPlanner.after(items, asked: [], presenters: presenters, leavingOut: nil, outcome: outcome)
        #expect(summary(told) == ["target": ["subitemDidAppear /e/a.txt"]])
    }
}
