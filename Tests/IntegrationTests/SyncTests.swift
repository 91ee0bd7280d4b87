import Foundation
import Testing

/// Several real `ubqd`s, each with its own root and state, syncing through one mirror.
/// `ubq sync` runs a pass on request (after the watcher caught up), so most steps need no
/// waiting at all; the automatic propagation test waits for the file to appear.
@Suite("Sync between real daemons", .serialized)
final class SyncTests {
    let shared = SharedMirror()
    var mirror: String { shared.path }

    private func start(_ count: Int) throws -> [DaemonHarness] {
        for _ in 0..<count {
            let device = try DaemonHarness()
            try device.start(extraEnvironment: ["UBQ_MIRROR": mirror])
            shared.add(device)
        }
        return shared.devices
    }

    private func sync(_ device: DaemonHarness) throws {
        let result = try device.ubq(["sync"])
        #expect(result.status == 0, "ubq sync: \(result.errorText)")
    }

    /// A file with two names (a hard link) edited through one: inotify names only that
    /// one, yet the other name's content changed too, and must reach the other device.
    @Test func anEditThroughOneNameOfAHardLinkedFileReachesTheOtherName() throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("mkdir sub && echo one > x.txt && ln x.txt sub/y.txt")
        try sync(a)
        try sync(b)
        #expect(b.documentsTree() == a.documentsTree())
        try a.shell("echo two >> x.txt")
        try sync(a)
        try sync(b)
        #expect(b.documentsTree()["sub/y.txt"] == "one\ntwo\n")
        #expect(b.documentsTree() == a.documentsTree())
        try a.expectIndexMatchesDisk()
    }

    /// `ubq deleted` lists what another device deleted, with the version `ubq restore`
    /// takes, and the restore brings it back on every device.
    @Test func aFileDeletedElsewhereIsListedAndRestored() throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("mkdir trip && echo 'day one' > trip/journal.txt && echo stays > trip/kept.txt")
        try sync(a)
        try sync(b)
        try b.shell("rm trip/journal.txt")
        try sync(b)
        try sync(a)

        let listing = try a.shell("\(DaemonHarness.binaries)/ubq deleted")
        let rows = listing.text.split(separator: "\n")
        #expect(rows.count == 2 && rows[1].hasSuffix("  " + a.documents + "/trip/journal.txt"), "\(listing.text)\(listing.errorText)")
        let json = try JSONSerialization.jsonObject(with: try a.ubq(["deleted", a.documents + "/trip", "--json"]).output) as? [[String: Any]]
        let version = try #require((json?.first?["lastVersion"] as? [String: Any])?["id"] as? String, "\(String(describing: json))")
        // From outside every container, and for the root: every container's deletions.
        for arguments in [["deleted"], ["deleted", a.root]] {
            let everywhere = try a.ubq(arguments)
            #expect(everywhere.text.split(separator: "\n").last?.hasSuffix("  " + a.documents + "/trip/journal.txt") == true, "\(arguments): \(everywhere.text)\(everywhere.errorText)")
        }
        let nothing = try a.ubq(["deleted", a.containerFolder + "/Documents/trip/kept.txt"])
        #expect(nothing.text.hasPrefix("nothing deleted below"), "\(nothing.text)")

        let restored = try a.ubq(["restore", a.documents + "/trip/journal.txt", "--version", version])
        #expect(restored.status == 0, "\(restored.errorText)")
        // The restored file is published by a's next pass: the one the restore runs may
        // leave it for later, written a moment ago (seen under load).
        try sync(a)
        try sync(b)
        #expect(b.documentsTree()["trip/journal.txt"] == "day one\n")
        #expect(try a.ubq(["deleted", a.containerFolder]).text.hasPrefix("nothing deleted below"))
    }

    /// A folder deleted elsewhere is listed by `ubq deleted` (not its subfolders), and
    /// its version brings it back whole, on every device.
    @Test func aDeletedFolderIsRestoredWhole() throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("mkdir -p trip/photos && echo 'day one' > trip/journal.txt && echo jpeg > trip/photos/1.jpg")
        try sync(a)
        try sync(b)
        try b.shell("rm -r trip")
        try sync(b)
        try sync(a)

        let json = try JSONSerialization.jsonObject(with: try a.ubq(["deleted", a.documents, "--json"]).output) as? [[String: Any]]
        let folder = try #require(json?.first { $0["path"] as? String == "Documents/trip" }, "\(String(describing: json))")
        #expect(json?.contains { $0["path"] as? String == "Documents/trip/photos" } == false)
        let version = try #require((folder["lastVersion"] as? [String: Any])?["id"] as? String)
        let restored = try a.ubq(["restore", a.documents + "/trip", "--version", version])
        #expect(restored.status == 0 && restored.text == "restored \(a.documents)/trip and 3 items below it\n", "\(restored.text)\(restored.errorText)")
        try sync(a)
        try sync(b)
        #expect(b.documentsTree()["trip/photos/1.jpg"] == "jpeg\n" && b.documentsTree()["trip/journal.txt"] == "day one\n", "\(b.documentsTree())")
        #expect(b.documentsTree() == a.documentsTree())
    }

    @Test func createEditRenameDeleteConvergeOnThreeDevices() throws {
        let all = try start(3)
        let (a, b, c) = (all[0], all[1], all[2])
        try a.shell("mkdir -p trip/photos && echo 'day one' > trip/journal.txt && echo jpeg > trip/photos/1.jpg && mkdir empty")
        try sync(a)
        try sync(b)
        try sync(c)
        #expect(b.documentsTree() == a.documentsTree())
        #expect(c.documentsTree() == a.documentsTree())

        try b.shell("echo 'day two' >> trip/journal.txt && mv trip/photos trip/pictures && ln -s trip/journal.txt latest")
        try sync(b)
        try c.shell("rm -r empty")
        try sync(c)
        for device in [a, b, c] { try sync(device) }
        let expected = a.documentsTree()
        #expect(expected["trip/journal.txt"] == "day one\nday two\n")
        #expect(expected["trip/pictures/1.jpg"] == "jpeg\n")
        #expect(expected["latest"] == "-> trip/journal.txt")
        #expect(expected["empty"] == nil)
        #expect(b.documentsTree() == expected)
        #expect(c.documentsTree() == expected)
        // Each daemon writes its view in the background; `ubq sync` returns once it is written.
        let views = try viewFolders()
        #expect(views.count == 3, "\(views)")
        for view in views { #expect(DaemonHarness.tree(at: view) == expected, "\(view)") }
    }

    /// One device renames a folder while the other, not hearing of it, renames and adds
    /// files in it. Whichever publishes first, both end with the folder under its new name
    /// holding the files under theirs: no old folder back, no file under both names. The
    /// second is stopped (SIGSTOP) while both change, so that it meets the first's change
    /// as its watcher reports its own, as a device back from sleep does.
    @Test(arguments: [true, false])
    func aFolderRenameAndChangesInsideItComposeWhoeverPublishesFirst(renamerFirst: Bool) throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("mkdir -p p/sub && echo x > p/x.txt && echo y > p/sub/y.txt && echo z > p/z.txt")
        try sync(a)
        try sync(b)
        let (first, second) = renamerFirst ? (a, b) : (b, a)
        let pid = try #require(second.process?.processIdentifier)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        try a.shell("mv p q")
        try b.shell("mv p/x.txt p/renamed.txt && mv p/sub/y.txt p/sub/Y.txt && echo new > p/new.txt")
        try sync(first)
        kill(pid, SIGCONT)
        for device in [second, first, second] { try sync(device) }
        let expected = [
            "q": "<folder>", "q/renamed.txt": "x\n", "q/z.txt": "z\n", "q/sub": "<folder>", "q/sub/Y.txt": "y\n", "q/new.txt": "new\n",
        ]
        #expect(a.documentsTree() == expected, "a log:\n\(a.log())")
        #expect(b.documentsTree() == expected, "b log:\n\(b.log())")
    }

    /// Every device's view of the container's Documents in the mirror.
    private func viewFolders() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: mirror + "/containers").flatMap { container in
            let current = mirror + "/containers/" + container + "/current"
            return try FileManager.default.contentsOfDirectory(atPath: current).map { current + "/" + $0 + "/Documents" }
        }
    }

    @Test func concurrentEditsBecomeAConflictThatResolveKeepAllSettles() throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("echo base > doc.txt")
        try sync(a)
        try sync(b)
        try shared.changeConcurrently(a, "echo 'from a' > doc.txt", b, "echo 'from b' > doc.txt")
        #expect(a.documentsTree() == b.documentsTree(), "one winner on both")
        let conflicts = try JSONSerialization.jsonObject(with: a.ubq(["conflicts", "--json"]).output) as? [[String: Any]]
        #expect(conflicts?.count == 1)
        #expect(conflicts?.first?["path"] as? String == "Documents/doc.txt")

        try sync(a)  // after the watcher saw the winner arrive, the index has the sync state
        let flagged = try a.ubq(["ls", "NSMetadataUbiquitousItemHasUnresolvedConflictsKey == YES"]).text
        #expect(flagged.contains("doc.txt"), "\(flagged)")
        let uploaded = try a.ubq(["ls", "NSMetadataUbiquitousItemIsUploadedKey == NO AND kMDItemFSName ENDSWITH '.txt'"]).text
        #expect(!uploaded.contains("doc.txt"), "\(uploaded)")

        let versions = try a.ubq(["versions", a.documents + "/doc.txt"])
        #expect(versions.text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 3, "\(versions.text)")

        let resolved = try b.ubq(["resolve", b.documents + "/doc.txt", "--keep", "all"])
        #expect(resolved.status == 0, "\(resolved.errorText)")
        try sync(b)
        try sync(a)
        #expect(try a.ubq(["conflicts"]).text == "no conflicts\n")
        let files = a.documentsTree()
        #expect(Set(files.values) == ["from a\n", "from b\n"])
        #expect(b.documentsTree() == files)
    }

    @Test func aChangeReachesTheOtherDeviceWithoutAsking() throws {
        let all = try start(2)
        let (a, b) = (all[0], all[1])
        try a.shell("echo automatic > auto.txt")
        let arrived = waitUntil(seconds: 20) { FileManager.default.contents(atPath: b.documents + "/auto.txt") == Data("automatic\n".utf8) }
        #expect(arrived, "b log:\n\(b.log())\na log:\n\(a.log())")
    }

    /// The pause is logged once, though ubqd tries at every poll (10 times a second: 860,000
    /// lines a day for a NAS left unmounted), and so is the return.
    @Test func statusShowsTheMirrorAndAPausedContainerWhenItVanishes() throws {
        let all = try start(1)
        let a = all[0]
        try a.shell("echo x > x.txt")
        try sync(a)
        try FileManager.default.moveItem(atPath: mirror, toPath: mirror + ".away")
        for _ in 0..<3 { #expect(try a.ubq(["sync"]).status == 75, "paused: try again later") }
        let status = try a.ubq(["status"]).text
        #expect(status.contains("mirror: \(mirror)"))
        #expect(status.contains("paused"), "\(status)")
        #expect(FileManager.default.fileExists(atPath: a.documents + "/x.txt"), "nothing deleted")
        #expect(a.log().components(separatedBy: "is not there (is its disk mounted?); sync is paused").count - 1 == 1, "\(a.log())")

        try FileManager.default.moveItem(atPath: mirror + ".away", toPath: mirror)
        try sync(a)
        #expect(a.log().contains("can be used again; sync resumes"))
    }
}

/// Polls `condition` until it holds or `seconds` pass: waiting for an event that has no
/// other signal here (another process's file appearing).
func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

extension DaemonHarness {
    /// The Documents folder: relative path → content, `<folder>` or `-> target`.
    func documentsTree() -> [String: String] { Self.tree(at: documents) }

    /// The tree below `folder`, as `documentsTree` renders it.
    static func tree(at folder: String) -> [String: String] {
        var tree: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder + "/" + relative
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                tree[relative] = "-> " + target
                continue
            }
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            tree[relative] = isFolder.boolValue ? "<folder>" : String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return tree
    }

    /// Kills ubqd with SIGKILL, as a crash or a power cut would, and waits for it to die.
    func killNine() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
