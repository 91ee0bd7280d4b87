import Glibc

/// Access times for the tests that check a read leaves them alone: a file whose access
/// time is older than its last change, which relatime's next read of it sets.
public enum AccessTime {
    /// An access time long past (2001), set on the files `makeStale` is given.
    public static let stale = 1_000_000_000

    /// Sets `path`'s access time to `stale` and its modification time to now; true if done.
    public static func makeStale(_ path: String) -> Bool {
        var times = [timespec(tv_sec: stale, tv_nsec: 0), timespec(tv_sec: time(nil), tv_nsec: 0)]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }

    /// `path`'s access time, in whole seconds; nil if it cannot be read.
    public static func seconds(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_atim.tv_sec : nil
    }
}
