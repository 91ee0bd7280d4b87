import APIModel
import Testing
@testable import UbqCLI

@Suite("The progress bar of ubq sync")
struct ProgressBarTests {
    @Test func halfTheBytesFillHalfTheBar() {
        let line = ProgressBar.render(SyncProgress(done: 1, total: 4, bytesDone: 1024, bytesTotal: 2048), width: 60)
        #expect(line.count == 60, "\(line)")
        #expect(line.hasSuffix("]  50%  1/4 actions  1.0 KiB/2.0 KiB"), "\(line)")
        let bar = line.prefix { $0 != "]" }.dropFirst()
        #expect(bar.filter { $0 == "#" }.count == bar.count / 2, "\(line)")
    }

    @Test func withoutBytesTheActionsDecide() {
        let line = ProgressBar.render(SyncProgress(done: 3, total: 4), width: 40)
        #expect(line == "[" + String(repeating: "#", count: 15) + "-----]  75%  3/4 actions", "\(line)")
    }

    @Test func aFinishedPassIsFullAndHundredPercent() {
        let line = ProgressBar.render(SyncProgress(done: 300, total: 300, bytesDone: 5_000_000, bytesTotal: 5_000_000), width: 70)
        #expect(!line.contains("-"), "\(line)")
        #expect(line.contains("] 100%  300/300 actions  4.7 MiB/4.7 MiB"), "\(line)")
    }

    @Test func aPassWithNothingPlannedYetIsNotDivisionByZero() {
        #expect(ProgressBar.render(SyncProgress(), width: 30) == "[##########] 100%  0/0 actions")
    }

    @Test func aNarrowTerminalDropsTheBarThenCutsTheFigures() {
        let progress = SyncProgress(done: 1, total: 2, bytesDone: 10, bytesTotal: 20)
        #expect(ProgressBar.render(progress, width: 30) == " 50%  1/2 actions  10 B/20 B")
        #expect(ProgressBar.render(progress, width: 8) == " 50%  1/")
        #expect(ProgressBar.render(progress, width: 0) == "")
    }

    static let sizes: [(Int64, String)] = [
        (0, "0 B"), (1023, "1023 B"), (1024, "1.0 KiB"), (1536, "1.5 KiB"), (1_048_576, "1.0 MiB"),
        (5 * 1_073_741_824 + 107_374_183, "5.1 GiB"), (Int64(3) << 50, "3.0 PiB"), (Int64(5000) << 50, "5000.0 PiB"),
    ]

    @Test(arguments: sizes)
    func bytesUseBinaryUnits(count: Int64, text: String) {
        #expect(ProgressBar.bytes(count) == text)
    }

    @Test func moreDoneThanPlannedNeverOverflowsTheBar() {
        let line = ProgressBar.render(SyncProgress(done: 5, total: 4, bytesDone: 30, bytesTotal: 20), width: 40)
        #expect(line.count <= 40)
        #expect(line.contains("100%"), "\(line)")
    }
}

/// What `ubq sync` draws on a terminal while it waits for the pass.
@Suite("ubq sync's waiting line")
struct SyncWaitingLineTests {
    @Test func aMirrorThatDoesNotAnswerIsSaidInsteadOfTheBar() {
        var waiting = ContainerSyncStatus(container: "iCloud.org.example.Notes")
        waiting.phase = .paused
        waiting.mirrorUnansweredSeconds = 12
        var busy = ContainerSyncStatus(container: "iCloud.org.ubiquity.Default")
        busy.phase = .syncing
        busy.progress = SyncProgress(done: 1, total: 4)
        let status = MirrorStatus(mirror: "/mnt/nas/ubq", device: "d", deviceName: "laptop", containers: [busy, waiting])
        #expect(SyncProgressDisplay.line(status, width: 200) == "waiting for the mirror: no answer for 12 s (ubq status tells more)")
        #expect(SyncProgressDisplay.line(status, width: 20)?.count == 20, "cut to the terminal's width")
        let answered = MirrorStatus(mirror: "/mnt/nas/ubq", device: "d", deviceName: "laptop", containers: [busy])
        #expect(SyncProgressDisplay.line(answered, width: 60)?.hasSuffix("1/4 actions") == true)
    }
}
