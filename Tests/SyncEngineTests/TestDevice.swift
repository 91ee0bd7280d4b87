import APIModel
import Coordination
import Foundation
import Indexing
import Logging
import RawPaths
import SyncPlanning
import TestSupport
import UbiquitySettings

@testable import SyncEngine

/// One simulated device in a temporary folder: its own root, state and engine, syncing
/// through a mirror folder it shares with the other devices of the test. Real files, real
/// SQLite, real mirror: only the daemon around the engine is missing.
final class TestDevice {
    static let containerID = ContainerID(folderName: "iCloud~org~ubiquity~Tests")!
    let name: String
    let root: String
    let state: String
    let mirror: String
    private(set) var engine: SyncEngine

    let retention: HistoryRetention
    /// What the engine logged, across restarts.
    let log = RecordingLogHandler.Messages()
    /// How long a file must have been left alone before a pass (not `settled`) takes it.
    let quietMilliseconds: Int

    init(_ name: String, in folder: String, mirror: String, retention: HistoryRetention = .days(30), quietMilliseconds: Int = 0) throws {
        self.retention = retention
        self.quietMilliseconds = quietMilliseconds
        self.name = name
        root = folder + "/\(name)/root"
        state = folder + "/\(name)/state"
        self.mirror = mirror
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/" + Self.containerID.folderName + "/Documents", withIntermediateDirectories: true)
        engine = try Self.makeEngine(
            root: root, state: state, mirror: mirror, retention: retention, quietMilliseconds: quietMilliseconds, log: log)
    }

    /// The name the engine is given at its next restart (`device_name`); none by default:
    /// the one it has keeps.
    var deviceName: String?

    /// The coordinator the engine takes its claims with; none by default (no claims).
    private(set) var coordinator: FileCoordinator?

    /// How many changes the engine's passes commit together (`ChangeBatch`), kept across
    /// restarts: small, a pass of a few files makes several batches.
    var batchCapacity = ChangeBatch.defaultCapacity {
        didSet { engine.batchCapacity = batchCapacity }
    }

    /// A new engine on the same state, as after a restart (or a kill -9).
    func restart() throws {
        engine = try Self.makeEngine(
            root: root, state: state, mirror: mirror, retention: retention, quietMilliseconds: quietMilliseconds, coordinator: coordinator,
            deviceName: deviceName, log: log)
        engine.batchCapacity = batchCapacity
    }

    /// Makes the engine take its claims with `coordinator`, as the daemon's does.
    func coordinate(with coordinator: FileCoordinator) throws {
        self.coordinator = coordinator
        try restart()
    }

    private static func makeEngine(
        root: String, state: String, mirror: String, retention: HistoryRetention, quietMilliseconds: Int,
        coordinator: FileCoordinator? = nil, deviceName: String? = nil, log: RecordingLogHandler.Messages
    ) throws -> SyncEngine {
        let settings = Settings(root: root, stateDirectory: state, runtimeDirectory: state + "/run", containerIDs: [containerID])
        let logger = Logger(label: "test") { _ in RecordingLogHandler(messages: log) }
        return try SyncEngine(
            mirror: mirror, root: RawPath(root), containers: [settings.container(containerID)],
            database: try SyncDatabase(path: state + "/sync.sqlite"),
            ignore: IgnoreCatalog(layout: ContainerLayout(root: RawPath(root)), extraPatterns: [], logger: logger),
            coordinator: coordinator, quietMilliseconds: quietMilliseconds, retention: retention, deviceName: deviceName, logger: logger)
    }

    var documents: String { root + "/" + Self.containerID.folderName + "/Documents" }

    @discardableResult
    /// A pass: over everything, or (`changed`) scoped to those paths and what other
    /// devices changed, as the daemon runs them between full passes.
    ///
    /// First waits until no file here is open for writing in another test's child
    /// (`InheritedWriters`), unless the test holds a writer itself (`holdingAWriter`).
    func sync(
        confirmDeletes: Bool = false, restoreDeletes: Bool = false, settled: Bool = false, changed: Set<RawPath>? = nil,
        holdingAWriter: Bool = false
    ) -> PassReport {
        if !holdingAWriter { InheritedWriters.waitUntilClosed(below: root) }
        let scope = changed.map { [Self.containerID: $0] }
        return engine.passAll(confirmDeletes: confirmDeletes, restoreDeletes: restoreDeletes, settled: settled, changed: scope)[Self.containerID]
            ?? PassReport(problems: ["no pass ran"])
    }

    func write(_ relative: String, _ text: String) throws {
        let path = documents + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Writes `relative` once with each of `texts`, syncing after each: a version each.
    func saveVersions(_ relative: String, _ texts: String...) throws {
        for text in texts {
            try write(relative, text)
            sync()
        }
    }

    /// The versions of `relative` the history keeps, newest first.
    func versions(_ relative: String) throws -> [VersionInfo] {
        try engine.versions(container: Self.containerID, path: "Documents/" + relative)
    }

    /// Makes `version` (one `versions(_:)` listed) of `relative` current again.
    func restore(_ relative: String, to version: VersionInfo) throws {
        guard let id = VersionID(version.id) else { throw SyncError(.unknownItem, "no version id: \(version.id)") }
        try engine.restore(container: Self.containerID, path: "Documents/" + relative, version: id)
    }

    func read(_ relative: String) -> String? {
        FileManager.default.contents(atPath: documents + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every item below Documents: relative path → file text, "<folder>" or "-> target".
    func tree() -> [String: String] { Self.tree(at: documents) }

    /// Every item below `folder`, as `tree()` renders them.
    static func tree(at folder: String) -> [String: String] {
        var tree: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder + "/" + relative
            let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) ?? nil
            switch type {
            case .typeDirectory?: tree[relative] = "<folder>"
            case .typeSymbolicLink?: tree[relative] = "-> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default: tree[relative] = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            }
        }
        return tree
    }
}

/// A temporary folder removed at the end of the test.
final class Scratch {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-sync-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func devices(_ names: String..., retention: HistoryRetention = .days(30)) throws -> [TestDevice] {
        try names.map { try TestDevice($0, in: path, mirror: path + "/mirror", retention: retention) }
    }

    /// Devices a and b, sharing this folder's mirror.
    func pair(retention: HistoryRetention = .days(30)) throws -> (TestDevice, TestDevice) {
        let devices = try self.devices("a", "b", retention: retention)
        return (devices[0], devices[1])
    }

    /// Devices a and b after both edited one synced file, `doc.txt`, at once, and synced:
    /// a conflict both know of.
    func conflictedPair(retention: HistoryRetention = .days(30)) throws -> (TestDevice, TestDevice) {
        let (a, b) = try pair(retention: retention)
        try a.write("doc.txt", "base")
        a.sync()
        b.sync()
        try a.write("doc.txt", "from a")
        try b.write("doc.txt", "from b")
        a.sync()
        b.sync()
        a.sync()
        return (a, b)
    }
}
