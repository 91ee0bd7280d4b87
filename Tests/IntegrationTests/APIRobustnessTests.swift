import Foundation
import Glibc
import Testing

/// Clients that misbehave on the API socket cannot hurt ubqd: after each abuse it still
/// answers `ubq status` promptly (docs/API.md, "Limits").
@Suite(.serialized) struct APIRobustnessTests {
    static func request(_ method: String, _ path: String, body: String = "", headers: String = "") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: ubqd\r\nContent-Length: \(body.utf8.count)\r\n\(headers)\r\n\(body)"
    }

    /// The whole response, once ubqd closes the connection.
    static func response(_ client: RawClient) throws -> RawResponse {
        guard let bytes = client.readToEnd() else { throw HarnessError("ubqd did not close the connection") }
        guard let response = RawResponse(bytes) else { throw HarnessError("not an HTTP response: \(String(decoding: bytes, as: UTF8.self))") }
        return response
    }

    @Test func garbageIsAnswered400AndTheConnectionClosed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let client = try RawClient(daemon.socketPath)
        client.send([0x00, 0xFF, 0xFE] + Array("not http at all\r\n\r\n".utf8))
        let answer = try #require(client.readToEnd(), "ubqd kept a garbage connection open")
        #expect(RawResponse(answer)?.status == 400)
        try daemon.expectResponsive()
    }

    @Test(arguments: [
        ("POST", "/v1/query", "{not json", 400, "bad-request"),
        ("POST", "/v1/query", "{\"predicate\": 42}", 400, "bad-request"),
        ("POST", "/v1/mirror/sync", "{\"confirmDeletes\": true, \"restoreDeletes\": true}", 400, "bad-request"),
        ("GET", "/v1/no-such-route", "", 404, "not-found"),
        ("POST", "/v1/status", "", 404, "not-found"),
    ])
    func badRequestsGetTheAPIsJSONErrorBody(method: String, path: String, body: String, status: Int, kind: String) throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let client = try RawClient(daemon.socketPath)
        client.send(Self.request(method, path, body: body, headers: "Connection: close\r\n"))
        let response = try Self.response(client)
        #expect(response.status == status)
        #expect(response.json?["error"] as? String == kind, "\(response.body)")
        #expect((response.json?["message"] as? String)?.isEmpty == false)
        try daemon.expectResponsive()
    }

    @Test func aBodyOverOneMebibyteIsAnswered413AndNotReadFurther() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let huge = 64 << 20
        let client = try RawClient(daemon.socketPath)
        client.send("POST /v1/query HTTP/1.1\r\nHost: ubqd\r\nContent-Type: application/json\r\nContent-Length: \(huge)\r\n\r\n{\"predicate\": \"")
        let sent = client.send([UInt8](repeating: UInt8(ascii: "a"), count: huge))
        #expect(sent < huge / 2, "ubqd stopped reading soon after the limit (it took \(sent) bytes)")
        let response = try Self.response(client)
        #expect(response.status == 413)
        #expect(response.json?["error"] as? String == "too-large")
        #expect((response.json?["message"] as? String)?.contains("1 MiB") == true)
        try daemon.waitForLog("refused a request body over 1048576 bytes")
        try daemon.expectResponsive()
    }

    @Test func aBodyJustUnderTheLimitIsServed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let padding = String(repeating: " ", count: (1 << 20) - 200)
        let body = "{\"predicate\": \"TRUEPREDICATE\", \"scope\": \"documents\", \"sort\": [], \"sync\": false, \"explain\": false\(padding)}"
        let client = try RawClient(daemon.socketPath)
        client.send(Self.request("POST", "/v1/query", body: body, headers: "Connection: close\r\n"))
        let response = try Self.response(client)
        #expect(response.status == 200, "\(response.body)")
    }

    @Test func aWatchClientThatDisconnectsMidStreamIsForgotten() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("echo a > a.txt")
        let baseline = daemon.openSockets()
        for round in 1...3 {
            let client = try RawClient(daemon.socketPath)
            client.send(Self.request("POST", "/v1/watch", body: "{}"))
            #expect(client.read(until: "finished-gathering") != nil)
            try daemon.shell("echo \(round) > during-\(round).txt")  // an update on its way
            withExtendedLifetime(client) {}  // and the connection is dropped, mid-stream
        }
        try daemon.shell("echo more > after.txt")
        for round in 1...3 { try daemon.waitForLog("live query client \(round) gone") }
        try daemon.waitUntil("ubqd closing the dropped connections") { daemon.openSockets() <= baseline }
        try daemon.expectResponsive()
        let watcher = try WatchClient(daemon, [])
        #expect(try watcher.gathered().count == 5)
    }

    @Test func idleConnectionsAreClosedButLiveQueriesAreNot() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["UBQ_IDLE_TIMEOUT": "1"])
        let watch = try RawClient(daemon.socketPath)
        watch.send(Self.request("POST", "/v1/watch", body: "{}"))
        #expect(watch.read(until: "finished-gathering") != nil)

        let silent = try RawClient(daemon.socketPath)
        let halfRequest = try RawClient(daemon.socketPath)
        halfRequest.send("GET /v1/sta")
        let start = ContinuousClock.now
        #expect(silent.readToEnd(timeout: .seconds(20)) == [], "a connection that sent nothing is closed")
        #expect(halfRequest.readToEnd(timeout: .seconds(20)) == [], "a connection stuck in its request line is closed")
        #expect(ContinuousClock.now - start >= .milliseconds(900))

        // The live query waited longer than the timeout too, and still streams.
        try daemon.shell("echo late > late.txt")
        #expect(watch.read(until: "late.txt") != nil)
        try daemon.expectResponsive()
    }

    @Test func aThousandConnectionsAtOnceAreServed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try Self.raiseOwnDescriptorLimit(to: 4096)
        let baseline = daemon.openSockets()
        do {
            let clients = try (0..<1000).map { _ in try RawClient(daemon.socketPath) }
            // Its listening socket and the thousand connections.
            try daemon.waitUntil("ubqd accepting the thousand connections") { daemon.openSockets() >= 1001 }
            try daemon.expectResponsive()
            for client in clients { client.send(Self.request("GET", "/v1/status", headers: "Connection: close\r\n")) }
            let answered = clients.filter { RawResponse($0.readToEnd() ?? [])?.status == 200 }.count
            #expect(answered == clients.count)
        }  // every client closes here
        try daemon.waitUntil("ubqd closing the thousand connections") { daemon.openSockets() <= baseline }
        try daemon.expectResponsive()
    }

    @Test func runningOutOfDescriptorsNeitherCrashesNorSpins() throws {
        let daemon = try DaemonHarness()
        // No connection cap: the descriptors run out first (the cap normally prevents that).
        try daemon.start(extraEnvironment: ["UBQ_MAX_CONNECTIONS": "100000"])
        try Self.raiseOwnDescriptorLimit(to: 4096)
        let limit = daemon.openDescriptors() + 40
        let lowered = try CommandResult.run("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--nofile=\(limit):\(limit)"], environment: [:])
        try #require(lowered.status == 0, "prlimit: \(lowered.errorText)")

        var clients: [RawClient] = []
        for _ in 0..<200 { if let client = try? RawClient(daemon.socketPath, wait: false) { clients.append(client) } }
        try daemon.waitUntil("ubqd using up its descriptors") { daemon.openDescriptors() >= limit - 1 }
        // Out of descriptors, accept(2) fails with EMFILE; ubqd pauses accepting instead of
        // retrying in a loop. Watch the CPU time over two pauses.
        let before = try daemon.cpuTime()
        let window = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < window {
            try #require(daemon.process?.isRunning == true, "ubqd died out of descriptors:\n\(daemon.log())")
            usleep(100_000)
        }
        let spent = try daemon.cpuTime() - before
        print("ubqd out of descriptors (limit \(limit)): \(spent) of CPU in 2 s")
        #expect(spent < .milliseconds(500), "ubqd used \(spent) of CPU in 2 s while out of descriptors")
        try daemon.waitForLog("cannot accept API connections")
        clients.removeAll()
        try daemon.expectResponsive(within: .seconds(10))
        try daemon.waitForLog("accepting API connections again")
        try daemon.shell("echo x > after-emfile.txt")
        #expect(try daemon.indexedItems().keys.contains(daemon.documents + "/after-emfile.txt"))
    }

    /// The test process needs more than the usual 1024 descriptors for its clients.
    static func raiseOwnDescriptorLimit(to wanted: rlim_t) throws {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { throw HarnessError("getrlimit failed") }
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        guard setrlimit(resource, &limit) == 0, limit.rlim_cur >= 1100 else {
            throw HarnessError("cannot raise this process's open-file limit to \(wanted) (hard limit \(limit.rlim_max))")
        }
    }
}
