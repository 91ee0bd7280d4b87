import Foundation
import Testing

/// The start-up scan records names and status before READY and reads content after it:
/// a query on content right after READY still finds it (it waits for the content pass),
/// and `ubq status` and systemd's STATUS= tell when the content is all read.
@Suite(.serialized) struct StartupContentTests {
    func preparedTree(files: Int) throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: daemon.documents + "/notes", withIntermediateDirectories: true)
        for n in 0..<files {
            try Data("note number \(n) about ordinary things\n".utf8).write(to: URL(fileURLWithPath: daemon.documents + "/notes/n\(n).txt"))
        }
        try Data("the zebra crossed the road\n".utf8).write(to: URL(fileURLWithPath: daemon.documents + "/needle.txt"))
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: daemon.documents + "/scan"))
        return daemon
    }

    func names(_ daemon: DaemonHarness, _ predicate: String) throws -> [String] {
        let result = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName", predicate])
        guard result.status == 0 else { throw HarnessError("ubq ls \(predicate) failed: \(result.errorText)") }
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: String]]).compactMap { $0["kMDItemFSName"] }
    }

    @Test func aContentQueryRightAfterReadyWaitsForTheContentPass() throws {
        let daemon = try preparedTree(files: 2_000)
        try daemon.start()
        #expect(try names(daemon, #"kMDItemTextContent CONTAINS "zebra""#) == ["needle.txt"])
        #expect(try names(daemon, #"kMDItemContentType == "com.adobe.pdf""#) == ["scan"])
        let status = try daemon.ubq(["status", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: status.output) as? [String: Any])
        #expect(json["contentPending"] as? Int == 0)
        try daemon.waitForLog("content of 2002 items read")
    }

    @Test func theFirstStartBuildsTheSecondaryIndexesAfterReadyAndARestartFindsThem() throws {
        let daemon = try preparedTree(files: 50)
        try daemon.start()
        #expect(try names(daemon, "kMDItemFSSize > 0 AND kMDItemFSName BEGINSWITH 'needle'") == ["needle.txt"])
        try daemon.waitForLog("built 6 of the index's secondary indexes")
        try daemon.waitForLog("content of 52 items read")
        daemon.stop()
        try daemon.start(extraEnvironment: ["UBQ_LOG_LEVEL": "debug"])
        try daemon.waitForLog("secondary indexes are all in place")  // the log starts anew with each start
        #expect(!daemon.log().contains("built"), "\(daemon.log())")
    }

    @Test func systemdHearsWhenTheContentIsRead() throws {
        let daemon = try preparedTree(files: 50)
        try daemon.start()
        let notify = try #require(daemon.notify)
        let ready = try notify.waitFor("READY=1")
        // READY does not wait for counting them; the count follows.
        #expect(ready.contains("reading content"), "\(ready)")
        let deadline = ContinuousClock.now + .seconds(60)
        var latest = ready
        while !latest.contains("index up to date") && ContinuousClock.now < deadline {
            latest = try notify.waitForNew("STATUS=", timeout: deadline - ContinuousClock.now)
        }
        #expect(latest.contains("index up to date"), "\(notify.messages)")
        #expect(notify.messages.contains { $0.contains("reading content of 52 items") }, "\(notify.messages)")
        #expect(try daemon.log().contains("start-up reconciliation: 52 new or changed items,"))
    }
}
