import APIModel
import Testing

@testable import UbqCLI

/// A version's line in `ubq versions` and `ubq conflicts`: two versions that differ by
/// their mode alone (a `chmod +x`) looked alike.
@Suite struct VersionRowTests {
    @Test(arguments: [
        (UInt32(0o644), false, "-rw-r--r--"), (0o755, false, "-rwxr-xr-x"), (0o4755, false, "-rwsr-xr-x"),
        (0o2644, false, "-rw-r-Sr--"), (0o1777, true, "drwxrwxrwt"), (0o1776, true, "drwxrwxrwT"), (0, false, "----------"),
    ])
    func modesReadAsLsShowsThem(mode: UInt32, folder: Bool, shown: String) {
        #expect(VersionRow.permissions(mode, folder: folder) == shown)
    }

    @Test func aFilesLineEndsWithItsSizeAndMode() {
        let version = VersionInfo(
            id: "0123456789abcdef:4", device: "0123456789abcdef", deviceName: "laptop", date: "2026-11-29T15:10:14.036Z", kind: "file",
            sha256: nil, size: 10, current: true, conflict: false, mode: "755")
        #expect(VersionRow.text(version) == "current   0123456789abcdef:4  2026-11-29T15:10:14.036Z  laptop  10 bytes  -rwxr-xr-x")
        var older = version
        older.mode = nil  // from a daemon older than the field
        #expect(VersionRow.text(older).hasSuffix("laptop  10 bytes"))
    }
}
