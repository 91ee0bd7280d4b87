@testable import SyncEngine

enum ConflictNameForTests {
    /// 2026-11-22T12:00:00Z.
    static func make(_ path: String) -> String {
        ConflictName.make(for: path, device: "laptop", time: 1_795_348_800_000)
    }
}
