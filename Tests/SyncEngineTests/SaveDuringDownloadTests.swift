import Crypto
import Foundation
@testable import SyncEngine
import Testing

/// Editors that do not coordinate (vim, gedit, `cp`) save whenever the user asks, also
/// while a download of the same file is under way. The download must give way: the save
/// stays on disk, and syncs afterwards like any other edit.
@Suite struct SaveDuringDownloadTests {
    @Test func aSaveDuringTheDownloadOfAnEditStaysAndSyncsAsAConflict() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, holding: ["doc.txt": "1"])
        try a.write("doc.txt", "2, from a")
        a.sync()
        Self.whileDownloading(on: b) { try? b.saveAsEditorsDo("doc.txt", "saved on b meanwhile") }
        b.sync()
        #expect(b.read("doc.txt") == "saved on b meanwhile", "the download must not replace the save")
        Self.syncUntilQuiet(a, b)
        #expect(a.tree() == b.tree())
        #expect(try Self.reachable("saved on b meanwhile", on: a), "current or a conflict version, on the other device too")
        #expect(try Self.reachable("2, from a", on: a))
    }

    @Test func aFileCreatedDuringTheDownloadOfANewFileStays() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, holding: [:])
        try a.write("new.txt", "made on a")
        a.sync()
        Self.whileDownloading(on: b) { try? b.saveAsEditorsDo("new.txt", "made on b meanwhile") }
        b.sync()
        #expect(b.read("new.txt") == "made on b meanwhile", "nothing was there when the download began; now something is")
        Self.syncUntilQuiet(a, b)
        #expect(a.tree() == b.tree())
        #expect(try Self.reachable("made on b meanwhile", on: a))
        #expect(try Self.reachable("made on a", on: a))
    }

    /// A write that lands right after the download went in (the claim released, or an
    /// editor that does not ask for one) must not be mistaken for the download: the base
    /// records the file as the download left it, so the next scan sees the write. The
    /// hardest case: in place, same size, only its time tells (set a second later here,
    /// as a write in a later clock tick would).
    @Test func aWriteRightAfterTheDownloadIsNotTakenForIt() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, holding: ["log.txt": "line 1\n"])
        try a.write("log.txt", "line 1\nline 2 from a\n")
        a.sync()
        let faults = FaultInjection()
        faults.interleave(at: "apply: disk written, base not committed") {
            try? b.overwriteInPlace("log.txt", "LINE 1\nline 2 from a\n", modifiedLater: true)
        }
        b.engine.faults = faults
        b.sync()
        b.engine.faults = nil
        b.sync()
        a.sync()
        #expect(a.read("log.txt") == "LINE 1\nline 2 from a\n")
        #expect(a.engine.conflicts().isEmpty, "b's write is an edit of the version it downloaded")
    }

    @Test func noStagingFileIsLeftWhenTheDownloadGivesWay() throws {
        let scratch = Scratch()
        let (a, b) = try Self.syncedPair(scratch, holding: ["doc.txt": "1"])
        try a.write("doc.txt", "2")
        a.sync()
        Self.whileDownloading(on: b) { try? b.saveAsEditorsDo("doc.txt", "saved meanwhile") }
        b.sync()
        let names = try FileManager.default.contentsOfDirectory(atPath: b.documents)
        #expect(names == ["doc.txt"])
    }

    // MARK: - Helpers

    static func syncedPair(_ scratch: Scratch, holding files: [String: String]) throws -> (TestDevice, TestDevice) {
        let devices = try scratch.devices("a", "b")
        for (path, text) in files { try devices[0].write(path, text) }
        devices[0].sync()
        devices[1].sync()
        return (devices[0], devices[1])
    }

    /// Runs `save` once `device`'s next download has its content beside the target, before
    /// it goes in.
    static func whileDownloading(on device: TestDevice, _ save: @escaping () -> Void) {
        let faults = FaultInjection()
        faults.interleave(at: Executor.stagedCheckpoint, save)
        device.engine.faults = faults
    }

    static func syncUntilQuiet(_ a: TestDevice, _ b: TestDevice) {
        a.engine.faults = nil
        b.engine.faults = nil
        for _ in 0..<3 {
            b.sync()
            a.sync()
        }
    }

    /// Whether `text` is the content of a version of `path` that `device` lists.
    static func reachable(_ text: String, at path: String = "", on device: TestDevice) throws -> Bool {
        let hash = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
        let paths = path.isEmpty ? Array(device.tree().keys) : [path]
        return try paths.contains { path in
            try device.engine.versions(container: TestDevice.containerID, path: "Documents/" + path).contains { $0.sha256 == hash }
        }
    }
}

extension TestDevice {
    /// Saves as most editors do: a new file beside the old one, renamed over it.
    func saveAsEditorsDo(_ relative: String, _ text: String) throws {
        let path = documents + "/" + relative
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + ".swp"))
        guard rename(path + ".swp", path) == 0 else { throw POSIXError(.EIO) }
    }

    /// Writes over the file itself, keeping its inode (vim with `backupcopy=yes`); with
    /// `modifiedLater`, its modification time is then set a second ahead.
    func overwriteInPlace(_ relative: String, _ text: String, modifiedLater: Bool) throws {
        let path = documents + "/" + relative
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(text.utf8))
        try handle.truncate(atOffset: UInt64(text.utf8.count))
        try handle.close()
        guard modifiedLater else { return }
        let later = Date().addingTimeInterval(1)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
    }
}
