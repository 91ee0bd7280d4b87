import APIModel
import PresenterPlanning
import Testing

/// What presenters hear as sync's look at the conflict versions changes: the file's own
/// presenter hears each version gained and each resolved, nobody else anything.
@Suite("Presenters told of conflict versions gained and resolved")
struct ConflictVersionTests {
    let presenters = [presence("file", "/d/a.txt"), presence("folder", "/d"), presence("other", "/d/b.txt")]

    func version(_ id: String) -> VersionInfo {
        VersionInfo(id: id, device: "dev", deviceName: "laptop", date: "2026-11-27T00:00:00Z", kind: "file", sha256: nil, size: 1, current: false, conflict: true)
    }

    func snapshot(_ files: [String: [String]]) -> ConflictSnapshot {
        ConflictSnapshot(Dictionary(uniqueKeysWithValues: files.map { path, ids in
            (bytes(path), ConflictSnapshot.Entry(item: VersionedItem(container: "c", path: "Documents" + path), versions: ids.map(version)))
        }))
    }

    func notices(_ old: [String: [String]], _ new: [String: [String]]) -> [String: [String]] {
        summary(ConflictVersionPlanner.notices(from: snapshot(old), to: snapshot(new), presenters: presenters))
    }

    @Test func aNewConflictIsGainedByTheFilesPresenterOnly() {
        #expect(notices([:], ["/d/a.txt": ["x:1"]]) == ["file": ["didGainVersion x:1"]])
    }

    @Test func aSecondVersionIsGainedAloneAndAResolvedOneToldAsResolved() {
        #expect(notices(["/d/a.txt": ["x:1"]], ["/d/a.txt": ["x:1", "y:4"]]) == ["file": ["didGainVersion y:4"]])
        #expect(notices(["/d/a.txt": ["x:1", "y:4"]], ["/d/a.txt": ["y:4"]]) == ["file": ["didResolveConflictVersion x:1"]])
        #expect(notices(["/d/a.txt": ["x:1"]], [:]) == ["file": ["didResolveConflictVersion x:1"]])
    }

    @Test func resolutionsComeBeforeGainsAndCarryTheItem() {
        let plans = ConflictVersionPlanner.notices(
            from: snapshot(["/d/a.txt": ["x:1"]]), to: snapshot(["/d/a.txt": ["y:2"]]), presenters: presenters)
        #expect(summary(plans) == ["file": ["didResolveConflictVersion x:1", "didGainVersion y:2"]])
        #expect(plans.first?.messages.allSatisfy { $0.item == VersionedItem(container: "c", path: "Documents/d/a.txt") } == true)
        #expect(plans.first?.messages.map { $0.version?.conflict } == [false, true], "a resolved version is no conflict version any more")
    }

    @Test func aVersionGoneFromTheHistoryIsLostNotResolved() {
        let plans = ConflictVersionPlanner.notices(
            from: snapshot(["/d/a.txt": ["x:1", "y:2"]]), to: snapshot([:]), lost: ["x:1"], presenters: presenters)
        #expect(summary(plans) == ["file": ["didLoseVersion x:1", "didResolveConflictVersion y:2"]])
        let departed = ConflictVersionPlanner.departed(from: snapshot(["/d/a.txt": ["x:1", "y:2"]]), to: snapshot(["/d/a.txt": ["y:2"]]))
        #expect(departed.map(\.version.id) == ["x:1"])
    }

    @Test func nothingChangedTellsNobody() {
        #expect(notices(["/d/a.txt": ["x:1"]], ["/d/a.txt": ["x:1"]]).isEmpty)
        #expect(notices(["/e/z.txt": ["x:1"]], [:]).isEmpty, "a file nobody presents")
    }
}
