import Foundation
import Testing

/// A mirror folder several test daemons share, and those daemons: all stopped and the
/// folder removed (also where a test moved it away, `PATH.away`) when it goes.
final class SharedMirror {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mirror-\(UUID().uuidString.prefix(8))").path
    private(set) var devices: [DaemonHarness] = []

    /// Keeps `device` to stop at the end; returns it.
    @discardableResult
    func add(_ device: DaemonHarness) -> DaemonHarness {
        devices.append(device)
        return device
    }

    /// Two devices started on this mirror (kept to stop at the end).
    func twoDevices() throws -> (DaemonHarness, DaemonHarness) {
        for _ in 0..<2 {
            let device = try DaemonHarness()
            try device.start(extraEnvironment: ["UBQ_MIRROR": path])
            add(device)
        }
        return (devices[devices.count - 2], devices[devices.count - 1])
    }

    /// Runs `ubq sync` on each device in turn, expecting each to succeed.
    func sync(_ devices: DaemonHarness...) throws {
        for device in devices {
            let result = try device.ubq(["sync"])
            #expect(result.status == 0, "ubq sync: \(result.errorText)")
        }
    }

    deinit {
        for device in devices { device.stop() }
        DaemonHarness.remove(path)
        DaemonHarness.remove(path + ".away")
    }
}
