import Foundation
import Glibc
import Testing

/// `ubq ls --watch` against the real daemon: NSMetadataQuery's updates as files change.
@Suite(.serialized) struct LiveQueryTests {
    static let textFiles = #"kMDItemFSName ENDSWITH ".txt""#

    @Test func addChangeRenameIntoAndOutOfTheMatchAndDeleteGiveTheirKinds() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("echo a > a.txt && echo b > b.md")
        let watch = try WatchClient(daemon, [Self.textFiles])
        #expect(try watch.gathered() == ["a.txt"])
        let steps: [(script: String, expected: String)] = [
            ("echo c > c.txt", "added c.txt"),
            ("echo more >> c.txt", "changed c.txt"),
            ("mv b.md b.txt", "added b.txt"),
            ("mv a.txt a.md", "removed a.txt"),
            ("rm c.txt", "removed c.txt"),
        ]
        for step in steps {
            try daemon.shell(step.script)
            #expect(try watch.next().summary == step.expected, "after `\(step.script)`")
        }
    }

    @Test func anItemStartsMatchingWhenSyncMarksItUploaded() throws {
        let mirror = SharedMirror()
        let daemon = mirror.add(try DaemonHarness())
        try daemon.start(extraEnvironment: ["UBQ_MIRROR": mirror.path])
        let uploaded = try WatchClient(daemon, ["NSMetadataUbiquitousItemIsUploadedKey == YES AND \(Self.textFiles)"])
        let waiting = try WatchClient(daemon, ["NSMetadataUbiquitousItemIsUploadedKey == NO AND \(Self.textFiles)"])
        #expect(try uploaded.gathered().isEmpty)
        #expect(try waiting.gathered().isEmpty)
        try daemon.shell("echo up > up.txt")
        // Indexed first (not uploaded yet), then published: the sync engine's attributes
        // reach the live queries like the watcher's changes.
        #expect(try uploaded.next().summary == "added up.txt")
        #expect(try waiting.next().summary == "added up.txt")
        #expect(try waiting.next().summary == "removed up.txt")
    }

    @Test func anEditThatMakesAnItemStopMatchingRemovesIt() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("head -c 2000 /dev/zero > big.bin")
        let watch = try WatchClient(daemon, ["kMDItemFSSize > 1000"])
        #expect(try watch.gathered() == ["big.bin"])
        try daemon.shell("truncate -s 10 big.bin")
        let removed = try watch.next()
        #expect(removed.summary == "removed big.bin")
        #expect(removed.size == 10)
    }

    @Test func aBatchingIntervalSendsOneLinePerItemForItsNetChange() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let watch = try WatchClient(daemon, ["--batch-interval", "3", Self.textFiles])
        #expect(try watch.gathered().isEmpty)
        // `ubq ls` returns once the change is indexed (its sync cookie), so both changes
        // reach the stream within one interval; then a sentinel in a later interval.
        try daemon.shell("echo 1 > x.txt")
        #expect(try daemon.indexedItems(predicate: Self.textFiles).count == 1)
        try daemon.shell("echo 22 >> x.txt")
        #expect(try daemon.indexedItems(predicate: Self.textFiles).values.first == 5)
        let first = try watch.next()
        #expect(first.summary == "added x.txt")
        #expect(first.size == 5)
        try daemon.shell("echo s > sentinel.txt")
        #expect(try watch.next().summary == "added sentinel.txt")
    }

    @Test func aClientThatDisconnectsMidStreamDoesNotHurtTheDaemonOrOtherClients() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let leaving = try WatchClient(daemon, [Self.textFiles])
        let staying = try WatchClient(daemon, [Self.textFiles])
        _ = try leaving.gathered()
        _ = try staying.gathered()
        try daemon.shell("echo 1 > one.txt")
        #expect(try leaving.next().summary == "added one.txt")
        #expect(try staying.next().summary == "added one.txt")
        leaving.stop()
        leaving.process.waitUntilExit()
        try daemon.shell("echo 2 > two.txt && echo 3 > three.txt")
        #expect(Set([try staying.next().summary, try staying.next().summary]) == ["added two.txt", "added three.txt"])
        #expect(try daemon.ubq(["status"]).status == 0)
        #expect(daemon.process?.isRunning == true)
    }

    @Test func aClientThatStopsReadingIsDroppedWithoutBlockingIndexingOrOthers() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["UBQ_WATCH_BUFFER": "5"])
        // Enough gathered lines to fill the socket buffers of a client that never reads.
        let longName = String(repeating: "n", count: 150)
        try daemon.shell("for i in $(seq 3000); do : > \(longName)$i.txt; done")
        let stuck = try RawSocketClient(path: daemon.base + "/run/ubqd.sock")
        try stuck.send("POST /v1/watch HTTP/1.1\r\nHost: ubqd\r\nContent-Length: 2\r\n\r\n{}")
        try daemon.waitForLog("live query client 1 started")
        let reading = try WatchClient(daemon, [#"kMDItemFSName BEGINSWITH "new""#])
        #expect(try reading.gathered().isEmpty)
        // Two bursts, so the stuck client is pushed a batch while five updates wait for it.
        for burst in [1...5, 6...10] {
            try daemon.shell("for i in \(burst.map(String.init).joined(separator: " ")); do echo x > new$i; done")
            let received = try burst.map { _ in try reading.next().summary }
            #expect(Set(received) == Set(burst.map { "added new\($0)" }))
        }
        try daemon.waitForLog("live query client 1 dropped")
        #expect(try daemon.ubq(["status"]).status == 0)
        withExtendedLifetime(stuck) {}
    }

    @Test func aPredicateThatDoesNotParseIsRefusedBeforeStreaming() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let result = try daemon.ubq(["ls", "--watch", #"kMDItemFSName == "a" AND"#])
        #expect(result.status == 1)
        #expect(result.errorText.contains("^"))
    }
}

/// A client of the daemon's socket that sends bytes and never reads: the slowest client.
final class RawSocketClient {
    let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var size: Int32 = 4096
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw HarnessError("cannot connect to \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let sent = text.withCString { write(fd, $0, strlen($0)) }
        guard sent == text.utf8.count else { throw HarnessError("cannot send to the daemon: \(String(cString: strerror(errno)))") }
    }
}
