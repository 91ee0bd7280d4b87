import Foundation
import Testing

/// The examples are run as a newcomer would run them, against a real ubqd.
@Suite(.serialized) struct ExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func lsWalkthroughRunsAndFindsWhatItCreated() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        var environment = daemon.environment
        environment["UBQ"] = DaemonHarness.binaries + "/ubq"
        let result = try CommandResult.run("/bin/bash", [Self.repository.appendingPathComponent("Examples/ls.sh").path], environment: environment, directory: Self.repository.path)
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.text.contains("net.daringfireball.markdown"))
        #expect(result.text.contains("ls-walkthrough/Notes/groceries.txt"))
        #expect(result.text.contains("In memory: nothing"))
        #expect(!FileManager.default.fileExists(atPath: daemon.documents + "/ls-walkthrough"))
    }
}
