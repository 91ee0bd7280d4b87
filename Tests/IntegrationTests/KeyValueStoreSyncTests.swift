import Foundation
import Testing

/// `UbiquitousKeyValueStore` in two apps on two devices (presenter-probe's `kvs` mode,
/// each with its own real ubqd, one mirror): a value set on one is heard on the other
/// without asking, and values set on both at once merge key by key.
@Suite("Key-value store between real daemons", .serialized)
final class KeyValueStoreSyncTests {
    let shared = SharedMirror()
    let container = "iCloud.org.ubiquity.Default"

    private func app(on device: DaemonHarness) throws -> PresenterProbeProcess {
        let app = try PresenterProbeProcess(device, ["kvs", container])
        #expect(try app.next() == "opened")
        return app
    }

    private func run(_ app: PresenterProbeProcess, _ command: String) throws -> String {
        app.send(command)
        return try app.next(skipping: ["change "])
    }

    @Test func aValueSetOnOneDeviceIsHeardOnTheOtherAndConcurrentValuesMerge() throws {
        let (a, b) = try shared.twoDevices()
        let (onA, onB) = (try app(on: a), try app(on: b))

        #expect(try run(onA, "set color blue") == "synced")
        try shared.sync(a, b)
        #expect(try onB.next() == "change initialSyncChange color")
        #expect(try run(onB, "get color") == "value color blue")

        #expect(try run(onA, "set color green") == "synced")
        #expect(try run(onB, "set size large") == "synced")
        try shared.sync(a, b, a, b)
        #expect(try onA.next() == "change serverChange size")
        #expect(try onB.next() == "change serverChange color")
        for app in [onA, onB] {
            #expect(try run(app, "get color") == "value color green")
            #expect(try run(app, "get size") == "value size large")
        }
        #expect(try a.ubq(["conflicts"]).text == "no conflicts\n", "merged, not forked")
    }
}
