import Foundation
import Testing

/// Users drop files in with every tool there is; after each, `ubq ls` (which waits for
/// its sync cookie) must list exactly what `find` sees, sizes included.
@Suite(.serialized) struct EditorSaveTests {
    @Test func copyAndMoveIntoAndOutOfTheContainer() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("printf 'one' > /tmp/ubq-it-src-$$ && cp /tmp/ubq-it-src-$$ copied.txt && mv /tmp/ubq-it-src-$$ moved-in.txt")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems().keys.contains(daemon.documents + "/moved-in.txt"))
        try daemon.shell("mv moved-in.txt /tmp/ubq-it-out-$$ && rm /tmp/ubq-it-out-$$")
        try daemon.expectIndexMatchesDisk()
        #expect(try !daemon.indexedItems().keys.contains(daemon.documents + "/moved-in.txt"))
    }

    @Test func filesCreatedRightAfterMkdirAreSeen() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir -p a/b/c && echo x > a/b/c/deep.txt && echo y > a/top.txt && mkdir -p a/b/c/d/e && touch a/b/c/d/e/f")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems().count == 8)
    }

    @Test func sedInPlaceReplacesThroughATempFile() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("printf 'hello world\\n' > notes.txt")
        _ = try daemon.indexedItems()
        try daemon.shell("sed -i 's/world/there, everyone/' notes.txt")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems()[daemon.documents + "/notes.txt"] == 22)
        let found = try daemon.indexedItems(predicate: #"kMDItemTextContent CONTAINS "everyone""#)
        #expect(Array(found.keys) == [daemon.documents + "/notes.txt"])
    }

    @Test(arguments: ["yes", "no"])
    func vimSavesWithEitherBackupStrategy(backupcopy: String) throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("printf 'line one\\n' > poem.txt")
        try daemon.shell("vim -u NONE -i NONE -N -es -c 'set backup backupcopy=\(backupcopy)' -c 'normal Gofresh line' -c 'wq' poem.txt")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems()[daemon.documents + "/poem.txt"] == 20)
    }

    /// Other editors' saves, step by step as they make them (strace of each), with
    /// their lock and temporary files: the index ends with the saved text, nothing else.
    @Test(arguments: [
        // emacs: lock symlink while modified, first save renames the original to a backup.
        ("emacs", "ln -s 'me@host.4242:1700000000' '.#doc.txt' && mv doc.txt doc.txt~ && printf 'emacs saved\\n' > doc.txt && rm '.#doc.txt'"),
        // gedit (GIO): a hidden temporary beside the file, renamed over it.
        ("gedit", "printf 'gedit saved\\n' > .goutputstream-K2Q4XZ && mv .goutputstream-K2Q4XZ doc.txt"),
        // LibreOffice: a lock file while open, a lu*.tmp written and renamed over the file.
        ("libreoffice", "printf 'lock' > '.~lock.doc.txt#' && printf 'libreoffice saved\\n' > lu4242abc.tmp && mv lu4242abc.tmp doc.txt && rm '.~lock.doc.txt#'"),
        // Kate and other Qt editors (QSaveFile): NAME.XXXXXX, then a rename over the file.
        ("kate", "printf 'kate saved\\n' > doc.txt.aBc123 && mv doc.txt.aBc123 doc.txt"),
        // VS Code by default: truncated and written in place.
        ("vscode", "printf 'vscode saved\\n' > doc.txt"),
    ])
    func otherEditorsSaves(editor: String, save: String) throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("printf 'first draft\\n' > doc.txt")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell(save)
        try daemon.expectIndexMatchesDisk()
        let saved = try daemon.indexedItems(predicate: #"kMDItemTextContent CONTAINS "\#(editor) saved""#)
        #expect(Array(saved.keys) == [daemon.documents + "/doc.txt"], "\(editor)")
        #expect(try daemon.indexedItems(predicate: #"kMDItemTextContent CONTAINS "draft""#).isEmpty, "\(editor)")
    }

    /// `ln`: one file, two names. Written through one name, it changed under both, though
    /// inotify reports only the name written through.
    @Test func aHardLinkedFileChangesUnderEveryName() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir other && printf 'one\\n' > a.txt && ln a.txt other/b.txt && ln a.txt c.txt")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("printf 'two and more\\n' >> a.txt")
        try daemon.expectIndexMatchesDisk()
        let found = try daemon.indexedItems(predicate: #"kMDItemTextContent CONTAINS "more""#)
        #expect(Set(found.keys) == Set(["a.txt", "other/b.txt", "c.txt"].map { daemon.documents + "/" + $0 }))
        try daemon.shell("rm a.txt && printf 'three\\n' >> c.txt")
        try daemon.expectIndexMatchesDisk()
    }

    @Test func rsyncWritesATempFileThenRenames() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir -p /tmp/ubq-it-rsync-$$/tree/sub && for i in 1 2 3 4 5; do echo $i > /tmp/ubq-it-rsync-$$/tree/sub/f$i; done && rsync -a /tmp/ubq-it-rsync-$$/tree . && rm -rf /tmp/ubq-it-rsync-$$")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems().count == 7)
    }

    @Test func largeFileWrittenSlowlyIsListedWhole() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        // The writer keeps the file open and writes 1 MiB chunks with pauses; a listing
        // taken meanwhile may show the file partly written, never more than was written.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/bash")
        writer.arguments = ["-c", "exec 3> big.bin; for i in $(seq 8); do head -c 1048576 /dev/zero >&3; sleep 0.1; done; exec 3>&-"]
        writer.currentDirectoryURL = URL(fileURLWithPath: daemon.documents)
        try writer.run()
        let during = try daemon.indexedItems()[daemon.documents + "/big.bin"] ?? 0
        #expect(during <= 8 << 20)
        writer.waitUntilExit()
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems()[daemon.documents + "/big.bin"] == 8 << 20)
    }

    @Test func deletingAFolderTreeRemovesEveryItem() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir -p t/u/v && for i in $(seq 50); do echo $i > t/u/v/f$i; echo $i > t/g$i; done")
        #expect(try daemon.indexedItems().count == 103)
        try daemon.shell("rm -rf t")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems().isEmpty)
    }

    @Test func renamingAFolderOfAThousandFilesMovesThemAll() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir -p old/inner && for i in $(seq 1000); do echo $i > old/inner/f$i; done")
        #expect(try daemon.indexedItems().count == 1002)
        try daemon.shell("mv old renamed")
        try daemon.expectIndexMatchesDisk()
        let items = try daemon.indexedItems()
        #expect(items.count == 1002)
        #expect(items.keys.allSatisfy { $0.hasPrefix(daemon.documents + "/renamed") })
        try daemon.shell("echo changed > renamed/inner/f1")
        #expect(try daemon.indexedItems()[daemon.documents + "/renamed/inner/f1"] == 8)
    }

    @Test func tenThousandFilesInABurst() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir burst && cd burst && for i in $(seq 10000); do echo $i > f$i; done")
        try daemon.expectIndexMatchesDisk()
        #expect(try daemon.indexedItems().count == 10_001)
    }

    @Test func changesMadeWhileStoppedAreFoundAtStartWithoutRereadingTheRest() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir keep && for i in $(seq 100); do echo $i > keep/f$i; done && echo gone > gone.txt && echo old > edit.txt")
        try daemon.expectIndexMatchesDisk()
        daemon.stop()
        try daemon.shell("rm gone.txt && echo 'new content' > edit.txt && echo fresh > added.txt")
        try daemon.start()
        try daemon.expectIndexMatchesDisk()
        // Only the two changed files are read again; the 100 unchanged ones are not.
        #expect(daemon.log().contains("start-up reconciliation: 2 new or changed items,"))
        #expect(daemon.log().contains(" 1 removed"))
    }

    @Test func editorTemporariesAreNotIndexed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("touch .doc.txt.swp doc.txt~ 4913 '.#doc.txt' '#doc.txt#' .goutputstream-ABC123 '.~lock.doc.odt#' doc.part real.txt")
        let items = try daemon.indexedItems()
        #expect(Array(items.keys) == [daemon.documents + "/real.txt"])
    }
}
