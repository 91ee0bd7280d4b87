import Foundation
import Testing
import Coordination

/// The async forms run on the caller's actor, so a main-actor model can read and write its
/// own state inside the accessor without sending anything across isolation domains.
@MainActor
final class DocumentModel {
    private(set) var text = ""
    private let coordinator: FileCoordinator

    init(coordinator: FileCoordinator) {
        self.coordinator = coordinator
    }

    func load(_ url: URL) async throws {
        try await coordinator.coordinate(readingItemAt: url, byAsyncAccessor: { url in
            self.text = try String(contentsOf: url, encoding: .utf8)
        })
    }

    func append(_ line: String, to url: URL) async throws {
        try await coordinator.coordinate(writingItemAt: url, options: .forMerging, byAsyncAccessor: { url in
            self.text += line
            try Data(self.text.utf8).write(to: url, options: .atomic)
        })
    }
}

@Suite("Async forms on an actor")
struct AsyncIsolationTests {
    @Test("a main-actor model reads and writes its document inside async accessors")
    @MainActor
    func mainActorModel() async throws {
        let sandbox = try Sandbox()
        let model = DocumentModel(coordinator: try FileCoordinator(lockDirectory: sandbox.locks))
        let url = sandbox.url("a/x")
        try await model.load(url)
        try await model.append("more\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "entry\nmore\n")
        #expect(model.text == "entry\nmore\n")
    }
}
