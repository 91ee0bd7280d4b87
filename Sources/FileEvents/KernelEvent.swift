/// One inotify event as the kernel reports it, with the name bytes copied out of the
/// library's buffer (libinotifytools reuses that buffer on its next call).
public struct KernelEvent: Sendable, Hashable {
    public var watch: Int32
    public var mask: InotifyMask
    public var cookie: UInt32
    /// The entry's name inside the watched folder; empty for events on the folder itself.
    public var name: [UInt8]

    public init(watch: Int32, mask: InotifyMask, cookie: UInt32 = 0, name: [UInt8] = []) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }
}

/// The inotify mask bits, with the kernel's values (a stable ABI, `linux/inotify.h`),
/// so event translation can be tested without a kernel.
public struct InotifyMask: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let modify = InotifyMask(rawValue: 0x0000_0002)
    public static let attrib = InotifyMask(rawValue: 0x0000_0004)
    public static let closeWrite = InotifyMask(rawValue: 0x0000_0008)
    public static let movedFrom = InotifyMask(rawValue: 0x0000_0040)
    public static let movedTo = InotifyMask(rawValue: 0x0000_0080)
    public static let create = InotifyMask(rawValue: 0x0000_0100)
    public static let delete = InotifyMask(rawValue: 0x0000_0200)
    public static let deleteSelf = InotifyMask(rawValue: 0x0000_0400)
    public static let moveSelf = InotifyMask(rawValue: 0x0000_0800)
    public static let unmount = InotifyMask(rawValue: 0x0000_2000)
    public static let queueOverflow = InotifyMask(rawValue: 0x0000_4000)
    public static let ignored = InotifyMask(rawValue: 0x0000_8000)
    public static let onlyDirectories = InotifyMask(rawValue: 0x0100_0000)
    public static let doNotFollow = InotifyMask(rawValue: 0x0200_0000)
    public static let excludeUnlinked = InotifyMask(rawValue: 0x0400_0000)
    public static let isDirectory = InotifyMask(rawValue: 0x4000_0000)

    /// What the watcher subscribes to on every folder: enough to see every way a file can
    /// appear, change or vanish, and nothing about reads.
    public static let watched: InotifyMask = [
        .modify, .attrib, .closeWrite, .movedFrom, .movedTo, .create, .delete, .deleteSelf,
        .moveSelf, .doNotFollow, .excludeUnlinked,
    ]
}
