import Foundation
import Testing

/// What ubqd tells systemd through `NOTIFY_SOCKET`, read by the test as systemd would.
@Suite(.serialized) struct SystemdNotifyTests {
    @Test func watchdogPingsKeepComingWhileIdleAndWhileIndexing() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["WATCHDOG_USEC": "1000000"])
        let notify = try #require(daemon.notify)
        #expect(try notify.waitForMessages("WATCHDOG=1", count: 3, timeout: .seconds(30)).count == 3)
        try daemon.shell("for i in $(seq 200); do echo $i > f$i; done")
        #expect(try daemon.indexedItems().count == 200)
        #expect(try notify.waitForMessages("WATCHDOG=1", count: 2, timeout: .seconds(30)).count == 2)
    }

    @Test func aWatchdogMeantForAnotherProcessIsNotPinged() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        let notify = try #require(daemon.notify)
        // The same loop pings the other daemon above within 30 s; this one must stay silent
        // while a change goes through that loop several times.
        for name in ["a", "b", "c"] {
            try daemon.shell("echo x > \(name)")
            _ = try daemon.indexedItems()
        }
        #expect(throws: HarnessError.self) { try notify.waitForNew("WATCHDOG=1", timeout: .milliseconds(500)) }
    }

    /// A notification socket nobody reads fills after net.unix.max_dgram_qlen datagrams
    /// (10 here); the daemon must drop notifications then, not block the loop that sends them.
    @Test func aNotificationSocketNobodyReadsDoesNotStallTheDaemon() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["WATCHDOG_USEC": "100000"])  // a ping every 25 ms
        for n in 1...8 {  // seconds of work: far more pings than the socket queues
            try daemon.shell("echo \(n) > f\(n)")
            #expect(try daemon.indexedItems().count == n)
        }
    }

    @Test func stoppingIsAnnouncedOnSIGTERM() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        daemon.stop()
        #expect(try daemon.notify?.waitFor("STOPPING=1", timeout: .seconds(5)) != nil)
    }
}
