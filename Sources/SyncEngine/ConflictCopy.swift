import Foundation
import Glibc
import RawPaths
import SyncPlanning

/// A version kept beside its path as an item of its own,
/// `notes (conflict from laptop 2026-11-22).txt` (`ConflictName`): what
/// `ubq resolve --keep all` does with the losing versions, and what a pass does with a file
/// that a folder still in use here is published over (`SyncPlan.keptBeside`).
struct ConflictCopy {
    let containerFolder: RawPath
    let store: ContentStore
    let faults: FaultInjection?

    static let largestNumber = 100

    /// Puts a copy of `version` (a file or a link; nothing for others) beside its path,
    /// under the first conflict name for `deviceName` and the version's day that is free,
    /// never over an existing item. Nothing either when one of those names already holds
    /// the version: a pass stopped after the copy, or a resolution made again, makes no
    /// second one.
    func place(_ version: VersionRecord, deviceName: String) throws(SyncError) {
        guard let state = version.state, state.kind == .file || state.kind == .symlink else { return }
        let relative = LocalNames.relative(of: version.path, local: nil, in: containerFolder).readable
        try ConcurrentSync.fsyncFolders(try Sys.makeParentFolders(of: relative, beneath: containerFolder.readable), faults: faults)
        let staging = DurableFile.stagingPath(beside: containerFolder.appending(relative).readable)
        try store.make(state, at: staging)
        do throws(SyncError) {
            for number in 1...Self.largestNumber {
                let name = containerFolder.appending(ConflictName.make(for: relative, device: deviceName, time: version.time, number: number)).readable
                if try Self.holds(state, at: name) {
                    unlink(staging)
                    return
                }
                if try Sys.renameNoReplace(staging, name) {
                    try Sys.fsyncFolder(Sys.parent(of: name))
                    return
                }
            }
            throw SyncError(.changedMeanwhile, "\(version.path): \(Self.largestNumber) conflict copies are beside it already; nothing was changed")
        } catch {
            unlink(staging)
            throw error
        }
    }

    /// Whether the item at `path` is `state` already: a regular file with its content, or
    /// a link to its target.
    static func holds(_ state: EntryState, at path: String) throws(SyncError) -> Bool {
        guard let info = Sys.lstat(path) else { return false }
        switch info.st_mode & S_IFMT {
        case S_IFREG where state.kind == .file && Int64(info.st_size) == state.size:
            return try ContentHashing.hash(path: path, refusingWriters: false).sha256 == state.sha256
        case S_IFLNK where state.kind == .symlink:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            return count >= 0 && String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) == state.linkTarget
        default:
            return false
        }
    }
}
