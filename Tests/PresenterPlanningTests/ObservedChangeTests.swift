import APIModel
import PresenterPlanning
import Testing

@Suite("Presenters told of changes the watcher saw")
struct ObservedChangeTests {
    let presenters = [presence("file", "/d/a.txt"), presence("folder", "/d"), presence("inside", "/d/sub/c.txt")]

    func told(_ changes: [ObservedChange]) -> [String: [String]] {
        summary(ObservedChangePlanner.notices(changes, presenters: presenters))
    }

    @Test("an edit by a program that does not coordinate is didChange, and subitemDidChange above")
    func edit() {
        #expect(told([.changed(bytes("/d/a.txt"))]) == ["file": ["didChange"], "folder": ["subitemDidChange /d/a.txt"]])
    }

    @Test("a new file appears to the folder presenter")
    func appeared() {
        #expect(told([.appeared(bytes("/d/n.txt"))]) == ["folder": ["subitemDidAppear /d/n.txt"]])
    }

    @Test("a removed folder is a deletion for the presenters inside it")
    func removedFolder() {
        #expect(told([.removed(bytes("/d/sub"))]) == ["inside": ["accommodateDeletion"], "folder": ["subitemDidChange /d/sub"]])
    }

    @Test("a folder rename is didMove inside it, subitemDidMove above it")
    func folderRename() {
        #expect(told([.moved(from: bytes("/d/sub"), to: bytes("/d/renamed"))]) == [
            "inside": ["didMove /d/renamed/c.txt"], "folder": ["subitemDidMove /d/sub /d/renamed"],
        ])
    }

    @Test("an item moved into a presented folder appears there")
    func movedIn() {
        let plans = ObservedChangePlanner.notices([.moved(from: bytes("/e/x"), to: bytes("/d/x"))], presenters: presenters)
        #expect(summary(plans) == ["folder": ["subitemDidAppear /d/x"]])
    }

    @Test("a change to a folder above a presented file is not a change of the file")
    func folderAbove() {
        #expect(told([.changed(bytes("/d"))]) == ["folder": ["didChange"]])
    }

    @Test("a rescan tells everyone at or below it that things may have changed")
    func rescan() {
        #expect(told([.rescanned(bytes("/d/sub"))]) == ["inside": ["didChange"], "folder": ["subitemDidChange /d/sub"]])
    }

    @Test("several changes to one item in a batch are told once")
    func batch() {
        #expect(told([.changed(bytes("/d/a.txt")), .changed(bytes("/d/a.txt"))])["file"] == ["didChange"])
        #expect(ObservedChangePlanner.notices([.changed(bytes("/d/a.txt"))], presenters: presenters).allSatisfy { !$0.isAsked })
    }
}
