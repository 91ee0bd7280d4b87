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

    /// Two devices started on this mirror (kept to stop at the end), the first with
    /// `firstConfig` as its config.toml.
    func twoDevices(firstConfig: String? = nil) throws -> (DaemonHarness, DaemonHarness) {
        for config in [firstConfig, nil] {
            let device = try DaemonHarness()
            if let config { try device.writeConfig(config) }
            try device.start(extraEnvironment: ["UBQ_MIRROR": path])
            add(device)
        }
        return (devices[devices.count - 2], devices[devices.count - 1])
    }

    /// Changes made on two devices before either hears of the other's, then synced (first,
    /// second, first): both devices know of the conflict. `second` is stopped while both
    /// change: running, it could download `first`'s change the moment `first` published it,
    /// before its own, which would then follow that change instead of being concurrent
    /// with it (1 run in 9 under load).
    func changeConcurrently(_ first: DaemonHarness, _ firstScript: String, _ second: DaemonHarness, _ secondScript: String) throws {
        second.stop()
        try second.shell(secondScript)
        try first.shell(firstScript)
        try sync(first)
        try second.restart()
        try sync(second, first)
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
