import Glibc

/// Reading an entry `readdir` returned. The entry is only as long as its name needs
/// (`d_reclen`), not `MemoryLayout<dirent>.size`, so these read its fields through its
/// address: `entry.pointee` loads the whole struct, reading past a short entry at the end of
/// the listing's buffer, and that read crashed a test run once (SIGSEGV in a memmove).
public enum DirectoryEntry {
    /// The entry's name, its raw bytes up to the terminating NUL.
    public static func name(_ entry: UnsafePointer<dirent>) -> [UInt8] {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let count = strlen(start.assumingMemoryBound(to: CChar.self))
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// The entry's `d_type` (`DT_DIR`, `DT_UNKNOWN`, ...).
    public static func type(_ entry: UnsafePointer<dirent>) -> Int {
        Int(UnsafeRawPointer(entry).load(fromByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_type)!, as: UInt8.self))
    }

    /// Whether `name` is `.` or `..`.
    public static func isDotOrDotDot(_ name: [UInt8]) -> Bool {
        name == [0x2E] || name == [0x2E, 0x2E]
    }

    /// The names the open listing `handle` has left, except `.` and `..`.
    public static func names(_ handle: OpaquePointer) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = self.name(entry)
            if !isDotOrDotDot(name) { names.append(name) }
        }
        return names
    }
}
