import FileEvents
import Foundation
import Glibc
import IgnoreRules
import Indexing
import Logging
import RawPaths
import Testing
import TestSupport
import Watching

/// A real watcher in this process, one test at a time (libinotifytools allows one per
/// process).
///
/// The start-up scan runs alongside the watcher's first walk: each folder is read only once
/// it is watched. A file made in a folder right when the scan is let in must be seen.
@Suite(.serialized) struct InProcessWatcherTests {
    /// The paths the watcher reported touched, for a thread to wait on.
    final class Seen: @unchecked Sendable {
        private let condition = NSCondition()
        private var paths: Set<RawPath> = []

        func insert(_ path: RawPath) {
            condition.lock()
            paths.insert(path)
            condition.broadcast()
            condition.unlock()
        }

        /// Those of `expected` not reported by `deadline` (a bound on a wait for events).
        func missing(_ expected: Set<RawPath>, by deadline: Date) -> Set<RawPath> {
            condition.lock()
            defer { condition.unlock() }
            while !expected.isSubset(of: paths) && condition.wait(until: deadline) {}
            return expected.subtracting(paths)
        }
    }

    /// The probes made; touched by the scan thread only, read once it is done.
    final class Probes: @unchecked Sendable {
        var paths: Set<RawPath> = []
    }

    @Test func everyFolderIsWatchedBeforeTheScanReadsIt() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-walk-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for outer in 0..<20 {
            for inner in 0..<5 {
                // Names whose path order differs from listing order: `f0 b` sorts before `f0/`.
                let folder = "f\(outer)\(outer % 3 == 0 ? " b" : "")/g\(inner)"
                try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            }
        }
        // The watcher walks `a` first, folder by folder; the scan ignores it and goes
        // straight on to `f0 b`: without waiting it would be there long before its watch.
        for index in 0..<3_000 {
            try FileManager.default.createDirectory(atPath: root + "/a/\(index)", withIntermediateDirectories: true)
        }
        let rootPath = RawPath(root)
        let watcher = InotifyWatcher(root: rootPath, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        defer { watcher.stop() }
        let seen = Seen()
        let listener = Task {
            for await event in watcher.events {
                if case .touched(let path, _) = event { seen.insert(rootPath.appending(path)) }
            }
        }
        defer { listener.cancel() }

        // The scan runs on a thread of its own (it blocks) and starts before the watcher.
        // Let into a folder, it makes a probe file there, as a change racing the scan
        // would: a folder let in before its watch exists never reports it.
        let (scanDone, finishScan) = AsyncStream.makeStream(of: Set<RawPath>.self)
        let atFirstGate = DispatchSemaphore(value: 0)
        let ignoringA = try IgnoreRules(parsing: "/a/\n", baseDirectory: "")
        Thread {
            let probes = Probes()
            let gate: FolderGate = { folder in
                if folder == rootPath { atFirstGate.signal() }
                watcher.walk.waitUntilWatched(folder)
                guard folder != rootPath else { return }
                let probe = folder.appending("probe")
                let fd = probe.withCString { open($0, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644) }
                if fd >= 0 { close(fd) }
                probes.paths.insert(probe)
            }
            var walk = OrderedTreeWalk(folder: rootPath, prefix: RawPath(), ignore: ignoringA, beforeReading: gate)
            while walk.next() != nil {}
            finishScan.yield(probes.paths)
            finishScan.finish()
        }.start()
        // The watcher starts only once the scan is at the door of the first folder.
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                atFirstGate.wait()
                started.resume()
            }
        }
        try await watcher.startWalking()
        var made: Set<RawPath> = []
        for await paths in scanDone { made = paths }
        let probes = made
        #expect(probes.count == 120)
        let missed = await withCheckedContinuation { (done: CheckedContinuation<Set<RawPath>, Never>) in
            DispatchQueue.global().async { done.resume(returning: seen.missing(probes, by: Date(timeIntervalSinceNow: 60))) }
        }
        #expect(missed.isEmpty, "probes made in folders not watched yet: \(missed.sorted().prefix(5))")
    }

    /// libinotifytools keeps what it knew of each deleted folder's watch (the kernel dropped
    /// it, and the library frees an entry only by removing its watch). After
    /// `renewalAfter` such folders, once no event came for a second, it starts afresh: the
    /// tree is rescanned, a sync cookie made meanwhile is told, and folders are watched as
    /// before.
    @Test func theLibraryStartsAfreshAfterManyDeletedFoldersAndStillWatches() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-renew-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for index in 0..<12 {
            try FileManager.default.createDirectory(atPath: root + "/gone/\(index)", withIntermediateDirectories: true)
        }
        let (logger, messages) = RecordingLogHandler.logger()
        let watcher = InotifyWatcher(root: RawPath(root), renewalAfter: 10, logger: logger)
        defer { watcher.stop() }
        let seen = Seen()
        let listener = Task {
            for await event in watcher.events {
                switch event {
                case .rescan(let path): seen.insert(RawPath(bytes: Array("rescan ".utf8) + path.bytes))
                case .touched(let path, _): seen.insert(path)
                case .cookie(let name): seen.insert(RawPath("cookie " + name))
                default: break
                }
            }
        }
        defer { listener.cancel() }
        try await watcher.start()

        try FileManager.default.removeItem(atPath: root + "/gone")  // 13 folders: their watches go
        // Made before the library starts afresh (a second from now at the soonest), its
        // creation may reach either instance: it is told either way.
        let cookie = WatchEvent.cookiePrefix + "renewal-1"
        FileManager.default.createFile(atPath: root + "/" + cookie, contents: nil)
        #expect(await Self.missing([RawPath("rescan "), RawPath("cookie " + cookie)], in: seen).isEmpty)
        // After 10 to 13: a stalled test process may pause the deletion for a second.
        #expect(messages.texts(at: .info).contains { $0.contains("starting libinotifytools afresh after 1") }, "\(messages.texts(at: .info))")
        try FileManager.default.createDirectory(atPath: root + "/new", withIntermediateDirectories: true)
        #expect(await Self.missing([RawPath("rescan new")], in: seen).isEmpty, "the root is watched")
        FileManager.default.createFile(atPath: root + "/new/after.txt", contents: Data("after".utf8))
        #expect(await Self.missing([RawPath("new/after.txt")], in: seen).isEmpty, "and a folder made after it")
    }

    /// Those of `expected` that `seen` has not within 30 s, waited for on a thread outside
    /// the cooperative pool (the listener needs one of its threads meanwhile).
    private static func missing(_ expected: Set<RawPath>, in seen: Seen) async -> Set<RawPath> {
        await withCheckedContinuation { done in
            DispatchQueue.global().async { done.resume(returning: seen.missing(expected, by: Date(timeIntervalSinceNow: 30))) }
        }
    }
}
