import CivilCalendar
import Foundation
import Glibc
import RawPaths
import SyncPlanning

/// What one collection of the store did.
public struct StoreCollection: Sendable, Equatable {
    /// Objects in the store.
    public var objects = 0
    public var deleted = 0
    public var bytesFreed: Int64 = 0
    /// Entries of `store/damaged/` deleted (`StoreCollector.deleteExpiredDamaged`).
    public var damagedDeleted = 0
    /// Why nothing or not everything was collected.
    public var problems: [String] = []

    public init() {}
}

/// Deletes the store's objects that no kept version names any more
/// (docs/MIRROR-FORMAT.md, "Retention and collection").
///
/// The store is shared by every device and every container, so what is needed is read
/// from every container's logs in the mirror, not only from those synced here; a log with
/// a line that cannot be read stops the collection (that line may name anything). An
/// object is deleted only when it is also older than `graceMilliseconds`: an upload that
/// finds its content already stored touches the object before naming it in its log, so
/// content about to be named again, by a line not read here yet, is young. The logs are
/// read once more just before deleting, to narrow that window further.
struct StoreCollector {
    let layout: MirrorLayout
    let device: String
    let retention: HistoryRetention
    let graceMilliseconds: Int64

    func collect(now: Int64) -> StoreCollection {
        var report = StoreCollection()
        let containers = mirrorContainers()
        let stored = objects()
        report.objects = stored.count
        guard readAll(containers, into: &report) else { return report }
        deleteStaleUploads(now: now)  // named by no log, but a log that cannot be read stops all deleting
        let neededNow = needed(containers, now)
        deleteExpiredDamaged(needed: neededNow, now: now, report: &report)
        let unneeded = Self.unneeded(stored, needed: neededNow).filter { isOld($0, now) }
        guard !unneeded.isEmpty, readAll(containers, into: &report) else { return report }  // lines appended meanwhile
        for object in Self.unneeded(unneeded, needed: needed(containers, now)) {
            delete(object, now: now, report: &report)
        }
        return report
    }

    /// A stored object: its content hash and where it is.
    struct Object: Equatable {
        var sha256: String
        var path: String
    }

    static func unneeded(_ objects: [Object], needed: Set<String>) -> [Object] {
        objects.filter { !needed.contains($0.sha256) }
    }

    private func needed(_ containers: [ContainerSync], _ now: Int64) -> Set<String> {
        containers.reduce(into: Set()) { needed, container in
            needed.formUnion(retention.neededContent(container.histories.values, now: now, floor: container.retentionFloor))
        }
    }

    /// Reads what every log gained; false (with the problems reported) when some line
    /// could not be read.
    private func readAll(_ containers: [ContainerSync], into report: inout StoreCollection) -> Bool {
        let problems = containers.flatMap { $0.readLogs() }
        guard problems.isEmpty else {
            report.problems = problems.map { "store not collected: \($0)" }
            return false
        }
        return true
    }

    /// Every container that has logs in the mirror, read from nothing.
    private func mirrorContainers() -> [ContainerSync] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: layout.root + "/containers")) ?? []
        return ids.sorted().map { ContainerSync(id: $0, folder: RawPath(), layout: layout, device: device) }
    }

    /// The objects in `store/sha256/`; names that are not a 64-digit hash are not ours to delete.
    private func objects() -> [Object] {
        let store = layout.root + "/store/sha256"
        var found: [Object] = []
        for prefix in (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? [] where prefix.count == 2 {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(store)/\(prefix)")) ?? []
            where MirrorLayout.isObjectName(name) && name.hasPrefix(prefix) {
                found.append(Object(sha256: name, path: "\(store)/\(prefix)/\(name)"))
            }
        }
        return found
    }

    private func isOld(_ object: Object, _ now: Int64) -> Bool {
        Sys.lstat(object.path).map { isOld($0, now) } ?? false
    }

    private func isOld(_ info: stat, _ now: Int64) -> Bool {
        let modified = FileTime.milliseconds(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        return Self.age(of: modified, at: now) >= graceMilliseconds
    }

    /// Milliseconds from `time` to `now`: negative for a time ahead (young), and Int64.max
    /// past what Int64 counts (a file's time is anything its filesystem holds).
    static func age(of time: Int64, at now: Int64) -> Int64 {
        let (age, overflow) = now.subtractingReportingOverflow(time)
        return overflow ? (time > now ? .min : .max) : age
    }

    private func delete(_ object: Object, now: Int64, report: inout StoreCollection) {
        guard let info = Sys.lstat(object.path), isOld(info, now) else { return }  // touched meanwhile
        if unlink(object.path) == 0 {
            report.deleted += 1
            report.bytesFreed = report.bytesFreed.addingSaturated(Int64(info.st_size))
        } else if errno != ENOENT {  // (another device collected it first)
            report.problems.append("cannot delete \(object.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Entries of `store/damaged/` set aside longer ago than the retention keeps replaced
    /// versions (by the time of the rename that set them aside: the inode's change time),
    /// whose content no kept version needs or is whole in the store again: they were kept
    /// for a person to look at (one may hold an edit made in place), as long as history is.
    private func deleteExpiredDamaged(needed: Set<String>, now: Int64, report: inout StoreCollection) {
        guard let keep = retention.keepMilliseconds else { return }
        for (path, hash) in DamagedObjects.entries(in: layout) {
            guard !needed.contains(hash) || Sys.lstat(layout.object(hash)) != nil, let info = Sys.lstat(path), (info.st_mode & S_IFMT) == S_IFREG
            else { continue }
            let setAside = FileTime.milliseconds(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
            guard Self.age(of: setAside, at: now) >= max(keep, graceMilliseconds), unlink(path) == 0 else { continue }
            report.damagedDeleted += 1
            report.bytesFreed = report.bytesFreed.addingSaturated(Int64(info.st_size))
        }
    }

    /// Uploads of this device that a crash left in `store/incoming/`, at least a day old,
    /// and the folders of early copies (`StagingFolders`) they leave empty.
    private func deleteStaleUploads(now: Int64) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: layout.incoming)) ?? [] where name.hasPrefix(device + ".") {
            let path = layout.incoming + "/" + name
            guard let info = Sys.lstat(path) else { continue }
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                if isOld(info, now) { unlink(path) }
                continue
            }
            for inner in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                let file = path + "/" + inner
                if let info = Sys.lstat(file), (info.st_mode & S_IFMT) == S_IFREG, isOld(info, now) { unlink(file) }
            }
            rmdir(path)  // fails while young copies are left in it
        }
    }
}
