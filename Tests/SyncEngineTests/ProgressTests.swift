import APIModel
import Foundation
import Synchronization
import SyncEngine
import Testing

/// A pass counts its actions and the bytes it moves while it runs; status requests see the
/// counts from another thread, and the last pass with work keeps its final tally.
@Suite("The progress of a pass")
struct ProgressTests {
    static let files = 40

    /// Writes `files` files of growing sizes; returns their total size.
    func writeFiles(_ device: TestDevice) throws -> Int64 {
        var total: Int64 = 0
        for number in 0..<Self.files {
            let text = String(repeating: "x", count: 100 * number + 1)
            try device.write("batch/file-\(number).txt", text)
            total += Int64(text.utf8.count)
        }
        return total
    }

    @Test func uploadsAndDownloadsAreCountedAndEndComplete() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let bytes = try writeFiles(a)
        let seen = Watcher(a)
        a.sync()
        let snapshots = seen.stop()

        let uploaded = try #require(a.status().lastProgress)
        #expect(uploaded.done == uploaded.total)
        #expect(uploaded.total >= Self.files + 1, "the folder and every file: \(uploaded)")
        #expect(uploaded.bytesTotal == bytes)
        #expect(uploaded.bytesDone == bytes)
        #expect(a.status().progress == nil, "idle after the pass")
        for snapshot in snapshots {
            #expect(snapshot.done <= snapshot.total && snapshot.bytesDone <= snapshot.bytesTotal, "\(snapshot)")
        }

        b.sync()
        let downloaded = try #require(b.status().lastProgress)
        #expect(downloaded.done == downloaded.total)
        #expect(downloaded.bytesDone == bytes)
    }

    @Test func aPassWithNothingToDoKeepsTheLastTally() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("one.txt", "1")
        a.sync()
        let tally = a.status().lastProgress
        a.sync()
        #expect(tally != nil)
        #expect(a.status().lastProgress == tally)
    }

    /// Reads the device's status from another thread while a pass runs, as `GET
    /// /v1/mirror` does: whatever it catches must be consistent.
    final class Watcher: Sendable {
        private let snapshots = Mutex<[SyncProgress]>([])
        private let running = Atomic<Bool>(true)
        private let finished = DispatchSemaphore(value: 0)

        init(_ device: TestDevice) {
            let engine = device.engine
            Thread.detachNewThread { [self] in
                while running.load(ordering: .acquiring) {
                    let caught = engine.status().compactMap(\.progress)
                    snapshots.withLock { $0 += caught }
                }
                finished.signal()
            }
        }

        func stop() -> [SyncProgress] {
            running.store(false, ordering: .releasing)
            finished.wait()
            return snapshots.withLock { $0 }
        }
    }
}

extension TestDevice {
    func status() -> ContainerSyncStatus {
        engine.status().first { $0.container == Self.containerID.identifier } ?? ContainerSyncStatus(container: "?")
    }
}
