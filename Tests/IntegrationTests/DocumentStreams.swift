import DaemonClient
import Foundation
import Synchronization
import TestSupport
import Ubiquity

/// Waiting, in tests, for what a `Document`'s streams say.
enum DocumentStream {
    enum Step: Equatable { case yielded, ended, nothingWithin30s }

    /// What `stream` does next; `nothingWithin30s` is a guard against a hang (30 s the
    /// process ran: `StallAwareDeadline`).
    static func next(of stream: AsyncStream<Void>) async -> Step {
        await withTaskGroup(of: Step.self) { group in
            group.addTask {
                for await _ in stream { return .yielded }
                return .ended
            }
            group.addTask {
                var deadline = StallAwareDeadline(.seconds(30))
                while !deadline.hasPassed {
                    do { try await deadline.sleep() } catch { break }  // cancelled: the stream spoke
                }
                return .nothingWithin30s
            }
            let first = await group.next() ?? .nothingWithin30s
            group.cancelAll()
            return first
        }
    }

    static func yields(_ stream: AsyncStream<Void>) async -> Bool {
        await next(of: stream) == .yielded
    }
}

/// Notices counted on one task, read on another.
final class NoticeCount: Sendable {
    private let value = Mutex(0)
    var count: Int { value.withLock { $0 } }
    func add() { value.withLock { $0 += 1 } }

    /// Returns once `count` reached `least` (the counting task needs a thread meanwhile);
    /// throws after 30 s.
    func waitUntil(atLeast least: Int) async throws {
        try await poll(until: "\(least) notices; counted \(count)") { count >= least }
    }
}

extension DaemonHarness {
    /// `url` opened as a text document that asks this device's ubqd, once ubqd lists it as
    /// presented (a document registers its presenter in the background). The document
    /// belongs to the caller's actor, if any (there it autosaves and acts for other programs).
    /// `presenters`: how many presenters of `url` ubqd lists then (this one and those before).
    func openTextDocument(
        _ url: URL, presenterDeadline: Duration = DaemonPresenterRelay.defaultDeadline, presenters: Int = 1,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> TextDocument {
        let coordinator = try UbiquityContainer.fileCoordinator(presenterDeadline: presenterDeadline, environment: environment)
        let document = TextDocument(fileURL: url, coordinator: coordinator)
        document.environment = environment
        try await document.open()
        try await waitUntilPresented(url, count: presenters)
        return document
    }

    /// Returns once the index gives `url` that size (the watcher has seen the write that
    /// left it so); throws after 30 s.
    func waitUntilIndexed(_ url: URL, size: Int) async throws {
        try await poll(until: "\(url.path) indexed at \(size) bytes") { try indexedItems()[url.path] == Int64(size) }
    }

    /// Returns once ubqd lists `count` presenters of `url` (registered by tasks of this
    /// process); throws after 30 s.
    func waitUntilPresented(_ url: URL, count: Int = 1) async throws {
        try await poll(until: "ubqd lists \(count) presenters of \(url.path)") {
            let listed = try JSONSerialization.jsonObject(with: ubq(["presenters", "--json"]).output) as? [[String: Any]]
            return (listed?.filter { $0["path"] as? String == url.path }.count ?? 0) >= count
        }
    }
}

/// A plain text document.
final class TextDocument: Document {
    var text = ""

    override func contents(forType typeName: String) throws -> Data { Data(text.utf8) }

    override func load(fromContents contents: Data, ofType typeName: String) throws {
        text = String(decoding: contents, as: UTF8.self)
    }
}
