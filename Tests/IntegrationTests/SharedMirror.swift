import Foundation

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

    deinit {
        for device in devices { device.stop() }
        DaemonHarness.remove(path)
        DaemonHarness.remove(path + ".away")
    }
}
