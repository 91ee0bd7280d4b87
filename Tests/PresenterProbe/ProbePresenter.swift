import Foundation
import Ubiquity

/// Prints each call it gets; answers at once, or never (`silent`).
final class ProbePresenter: FilePresenter {
    let presentedItemURL: URL?
    let presentedItemOperationQueue: OperationQueue
    let silent: Bool

    init(url: URL, silent: Bool) {
        presentedItemURL = url
        presentedItemOperationQueue = OperationQueue()
        presentedItemOperationQueue.maxConcurrentOperationCount = 1
        self.silent = silent
    }

    func savePresentedItemChanges(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        say("savePresentedItemChanges")
        if !silent { completionHandler(nil) }
    }

    func relinquishPresentedItem(toReader reader: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
        say("relinquishToReader")
        if !silent { reader { say("reacquire") } }
    }

    func relinquishPresentedItem(toWriter writer: @escaping @Sendable ((@Sendable () -> Void)?) -> Void) {
        say("relinquishToWriter size=\(size)")
        if !silent { writer { say("reacquire") } }
    }

    func accommodatePresentedItemDeletion(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        say("accommodateDeletion")
        if !silent { completionHandler(nil) }
    }

    func presentedItemDidChange() { say("didChange size=\(size)") }

    /// The presented file's size now, so that a test sees what a call saw on disk.
    private var size: Int {
        guard let path = presentedItemURL?.path, let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return -1 }
        return (attributes[.size] as? Int) ?? -1
    }
    func presentedItemDidMove(to newURL: URL) { say("didMove \(newURL.path)") }
    func presentedItemDidGain(_ version: FileVersion) {
        say("didGain \(version.persistentIdentifier) conflict=\(version.isConflict) item=\(version.itemURL.path)")
    }
    func presentedItemDidResolveConflict(_ version: FileVersion) {
        say("didResolveConflict \(version.persistentIdentifier) conflict=\(version.isConflict)")
    }

    func presentedItemDidLose(_ version: FileVersion) {
        say("didLose \(version.persistentIdentifier)")
    }
    func presentedSubitemDidChange(at url: URL) { say("subitemDidChange \(url.path)") }
    func presentedSubitemDidAppear(at url: URL) { say("subitemDidAppear \(url.path)") }
    func presentedSubitem(at oldURL: URL, didMoveTo newURL: URL) { say("subitemDidMove \(oldURL.path) \(newURL.path)") }

    func accommodatePresentedSubitemDeletion(at url: URL, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        say("accommodateSubitemDeletion \(url.path)")
        if !silent { completionHandler(nil) }
    }
}

func present(_ path: String, silent: Bool) async {
    let presenter = ProbePresenter(url: URL(fileURLWithPath: path), silent: silent)
    say(await FileCoordinator.addFilePresenter(presenter) ? "registered" : "not-registered")
    while let line = readLine() {
        if line == "remove" {
            await FileCoordinator.removeFilePresenter(presenter)
            say("removed")
        }
    }
}

/// Appends under a coordinated write; returns the time from the call to the accessor.
func coordinatedAppend(_ path: String, text: String, deadline: Duration, coordinator: FileCoordinator? = nil) async throws -> Duration {
    let coordinator = try coordinator ?? UbiquityContainer.fileCoordinator(presenterDeadline: deadline)
    let start = ContinuousClock.now
    return try await coordinator.coordinate(writingItemAt: URL(fileURLWithPath: path), byAsyncAccessor: { url in
        let elapsed = ContinuousClock.now - start
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
        return elapsed
    })
}

func bench(_ path: String, count: Int, deadline: Duration) async throws {
    var samples: [Double] = []
    let coordinator = try UbiquityContainer.fileCoordinator(presenterDeadline: deadline)
    _ = try await coordinatedAppend(path, text: "", deadline: deadline, coordinator: coordinator)  // warm-up
    for _ in 0..<count {
        let elapsed = try await coordinatedAppend(path, text: "", deadline: deadline, coordinator: coordinator)
        samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
    }
    samples.sort()
    func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int(Double(samples.count) * p))] }
    say(String(format: "latency p50 %.0f p99 %.0f us over %d writes", percentile(0.5), percentile(0.99), count))
}
