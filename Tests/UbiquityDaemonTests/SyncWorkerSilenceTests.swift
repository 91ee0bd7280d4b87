import Dispatch
import Foundation
import Indexing
import Logging
import RawPaths
import SyncEngine
import Synchronization
import Testing
import UbiquitySettings

@testable import UbiquityDaemon

/// `SyncWorker.runForUser` with a real engine whose mirror call is held (the engine's
/// fault injection, where `HungMirrorTests` stops a real FUSE mount): a request queued
/// behind the held call is dropped, and one that is itself held is said to be under way.
@Suite(.timeLimit(.minutes(10)), .serialized) final class SyncWorkerSilenceTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-worker-\(UUID().uuidString.prefix(8))").path
    let engine: SyncEngine
    let worker: SyncWorker
    let held = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    init() throws {
        let id = try ContainerID("iCloud.org.ubiquity.Tests")
        let settings = Settings(root: folder + "/root", stateDirectory: folder + "/state", runtimeDirectory: folder + "/run", containerIDs: [id])
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        engine = try SyncEngine(
            mirror: folder + "/mirror", root: RawPath(folder + "/root"), containers: [settings.container(id)],
            database: try SyncDatabase(path: folder + "/state/sync.sqlite"),
            ignore: IgnoreCatalog(layout: ContainerLayout(root: RawPath(folder + "/root")), extraPatterns: [], logger: logger),
            coordinator: nil, logger: logger)
        engine.mirrorSilenceLimit = .zero  // a held call is silence at once
        worker = SyncWorker(engine: engine)
        let faults = FaultInjection()
        faults.interleave(at: "mirror call") { [held, release] in
            held.signal()
            _ = release.wait(timeout: .now() + 60)
        }
        engine.faults = faults
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    @Test func aRequestQueuedBehindAHeldCallIsDroppedAndNeverRuns() async throws {
        let poll = Task { [worker] in try await worker.run { $0.mirrorHasNews() } }
        #expect(await waitUntilHeld())
        let ran = Mutex(false)
        let error = await answer { _ in ran.withLock { $0 = true } }

        #expect(error?.code == .mirrorUnavailable && error?.message.contains("nothing was done") == true, "\(String(describing: error))")
        release.signal()
        _ = try await poll.value
        _ = try await worker.run { _ in }  // the queue has run everything before this
        #expect(!ran.withLock { $0 }, "dropped: it must not run once the mirror answers")
    }

    @Test func aRequestHeldItselfIsSaidToBeUnderWay() async throws {
        let error = await answer { _ = $0.mirrorHasNews() }
        #expect(error?.code == .mirrorUnavailable && error?.message.contains("under way") == true, "\(String(describing: error))")
        release.signal()
        _ = try await worker.run { _ in }
    }

    /// The error `runForUser(body)` answers with; nil if it answered otherwise.
    private func answer(_ body: @Sendable @escaping (SyncEngine) -> Void) async -> SyncError? {
        do {
            try await worker.runForUser(body)
            return nil
        } catch {
            return error as? SyncError
        }
    }

    /// Whether the mirror call got held within a minute, without blocking a cooperative thread.
    private func waitUntilHeld() async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [held] in continuation.resume(returning: held.wait(timeout: .now() + 60) == .success) }
        }
    }
}
