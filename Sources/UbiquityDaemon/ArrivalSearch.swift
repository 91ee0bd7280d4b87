import Glibc
import RawPaths

/// Finds where presented files went when no event paired their leaving with their arrival:
/// a file moved before the watcher had indexed it leaves no removal, and one moved into a
/// folder the watcher had not seen yet arrives inside that folder's appearance (the folder
/// is read as a whole; its contents are not reported one by one). Looks for the files'
/// inodes at the arrived paths and, for folders, below them.
struct ArrivalSearch {
    /// Entries looked at, at most, per search: an arrival of a large tree costs no more.
    /// A file further down is told as deleted, as before this search.
    static let entryBudget = 4096

    /// The files looked for: their inode, and the path they were presented at.
    private var sought: [FileStamp.Identity: [UInt8]]
    private var budget = Self.entryBudget

    init(sought: [FileStamp.Identity: [UInt8]]) {
        self.sought = sought
    }

    /// The moves found at or below `arrival` (each file sought is found once).
    mutating func moves(into arrival: [UInt8]) -> [(from: [UInt8], to: [UInt8])] {
        var found: [(from: [UInt8], to: [UInt8])] = []
        var folders: [[UInt8]] = []
        look(at: arrival, found: &found, folders: &folders)
        while !sought.isEmpty, budget > 0, let folder = folders.popLast() {
            for name in Self.names(in: folder) where budget > 0 {
                look(at: folder + [0x2F] + name, found: &found, folders: &folders)
            }
        }
        return found
    }

    private mutating func look(at path: [UInt8], found: inout [(from: [UInt8], to: [UInt8])], folders: inout [[UInt8]]) {
        budget -= 1
        var info = stat()
        guard Self.lstat(path, &info) else { return }
        let identity = FileStamp.Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let origin = sought.removeValue(forKey: identity) {
            found.append((origin, path))
        } else if info.st_mode & S_IFMT == S_IFDIR {
            folders.append(path)
        }
    }

    private static func lstat(_ path: [UInt8], _ info: inout stat) -> Bool {
        (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.lstat($0.baseAddress!, &info) }
        } == 0
    }

    private static func names(in folder: [UInt8]) -> [[UInt8]] {
        let handle = (folder + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) }
        }
        guard let handle else { return [] }
        defer { closedir(handle) }
        return DirectoryEntry.names(handle)
    }
}
