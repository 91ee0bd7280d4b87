#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock files a directory holds, read in one listing. A claim that skips missing lock
/// files (reads `.withoutCreatingLockFiles`) asks it once per attempt instead of opening
/// each file in turn: for ubqd's reads of 64 files to a claim, most of them with no lock
/// file, every `openat` failed, at about 3 µs each, 39% of the claim's time. Listed, such
/// a claim costs 3.1-3.2 µs a file instead of 6.5-8.1 (`coordination-bench`).
///
/// What a listing shows is what each `openat` would have found at that instant; a lock
/// file made after it is not waited for, as it would not be had it been made just after
/// its `openat`. A reader that makes no lock file is not ordered before later writers
/// either way (see `FileCoordinator.ReadingOptions.withoutCreatingLockFiles`).
enum LockListing {
    /// The lock names in `directory`, or nil when it holds more than `limit` entries (then
    /// opening each lock file costs less than listing them) or cannot be listed (a removed
    /// folder lists empty, so it is not listed: the claim's `openat` reports it).
    static func names(in directory: Int32, atMost limit: Int) -> Set<LockName>? {
        var info = stat()
        guard fstat(directory, &info) == 0, info.st_nlink > 0, Int(info.st_size) / bytesPerEntry <= limit else { return nil }
        let fd = Glibc.openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            if fd >= 0 { Sys.close(fd) }
            return nil
        }
        defer { closedir(stream) }
        var names: Set<LockName> = []
        var entries = 0
        while let entry = readdir(stream) {
            entries += 1
            if entries > limit { return nil }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { LockName(fileName: $0) }
            if let name { names.insert(name) }
        }
        return names
    }

    /// What a directory's size grows by per entry on tmpfs (where `$XDG_RUNTIME_DIR` is), to
    /// tell from its size alone that it holds too many lock files to list, rather than list
    /// them only to give up at the limit. Elsewhere an entry takes more (ext4: 48 bytes for
    /// a lock name, and a directory keeps its size after entries go), so the estimate errs
    /// towards not listing.
    static let bytesPerEntry = 20
}

extension LockName {
    /// The lock name a file name spells (`fileName` without its NUL), if it spells one.
    init?(fileName: UnsafeRawBufferPointer) {
        let suffix = ".lock".utf8
        guard fileName.count > 32 + suffix.count, fileName[32 + suffix.count] == 0,
            zip(fileName[32...], suffix).allSatisfy({ $0 == $1 })
        else { return nil }
        var hash: UInt128 = 0
        for byte in fileName[..<32] {
            guard let digit = Self.hexValue(byte) else { return nil }
            hash = hash << 4 | UInt128(digit)
        }
        self.init(hash: hash)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
