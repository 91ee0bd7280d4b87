import FileEvents
import RawPaths
import Testing

@Suite struct EventTranslatorTests {
    func translator() -> EventTranslator {
        var translator = EventTranslator()
        translator.registerWatch(1, path: "")
        translator.registerWatch(2, path: "c/Documents")
        translator.registerWatch(3, path: "c/Documents/sub")
        return translator
    }

    func name(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        (InotifyMask.create, WatchEvent.touched("c/Documents/f", stillOpen: false)),
        (.modify, .touched("c/Documents/f", stillOpen: true)),
        (.closeWrite, .touched("c/Documents/f", stillOpen: false)),
        (.attrib, .touched("c/Documents/f", stillOpen: false)),
        (.movedTo, .touched("c/Documents/f", stillOpen: false)),
        (.delete, .removed("c/Documents/f")),
    ])
    func fileEventsBecomeTouchesAndRemovals(mask: InotifyMask, expected: WatchEvent) {
        var translator = translator()
        #expect(translator.translate(KernelEvent(watch: 2, mask: mask, name: name("f"))) == [.emit(expected)])
    }

    @Test func newFolderIsWatchedAndRescanned() {
        var translator = translator()
        let actions = translator.translate(KernelEvent(watch: 2, mask: [.create, .isDirectory], name: name("new")))
        #expect(actions == [.watchSubtree("c/Documents/new")])
    }

    @Test func folderRenameInsideTreeMovesWatches() {
        var translator = translator()
        #expect(translator.translate(KernelEvent(watch: 2, mask: [.movedFrom, .isDirectory], cookie: 7, name: name("sub"))).isEmpty)
        let actions = translator.translate(KernelEvent(watch: 2, mask: [.movedTo, .isDirectory], cookie: 7, name: name("renamed")))
        #expect(actions == [
            .renameInLibrary(from: "c/Documents/sub", to: "c/Documents/renamed"), .watchFoldersBelow("c/Documents/renamed"),
            .emit(.moved(from: "c/Documents/sub", to: "c/Documents/renamed")),
        ])
        #expect(translator.table.path(of: 3) == "c/Documents/renamed")
        let later = translator.translate(KernelEvent(watch: 3, mask: .closeWrite, name: name("f")))
        #expect(later == [.emit(.touched("c/Documents/renamed/f", stillOpen: false))])
    }

    @Test func folderMovedOutOfTreeIsRemovedAndUnwatched() {
        var translator = translator()
        _ = translator.translate(KernelEvent(watch: 2, mask: [.movedFrom, .isDirectory], cookie: 9, name: name("sub")))
        let actions = translator.translate(KernelEvent(watch: 2, mask: .create, name: name("other")))
        #expect(actions == [.unwatch([3]), .emit(.removed("c/Documents/sub")), .emit(.touched("c/Documents/other", stillOpen: false))])
        #expect(translator.table.path(of: 3) == nil)
    }

    @Test func folderMovedOutIsNoticedWhenNothingElseHappens() {
        var translator = translator()
        _ = translator.translate(KernelEvent(watch: 2, mask: [.movedFrom, .isDirectory], cookie: 9, name: name("sub")))
        #expect(translator.flushPendingMove() == [.unwatch([3]), .emit(.removed("c/Documents/sub"))])
        #expect(translator.flushPendingMove().isEmpty)
    }

    /// The lost events may have made, renamed or removed folders: the table cannot be
    /// trusted, so every watch goes and the whole tree is watched and rescanned anew. Each
    /// goes with its folder's path: the watcher forgets those whose folder is gone.
    @Test func queueOverflowRewatchesAndRescansEverything() {
        var translator = translator()
        let before = translator.table
        #expect(before.count > 0)
        let actions = translator.translate(KernelEvent(watch: -1, mask: .queueOverflow))
        guard case .unwatchOrForget(let dropped)? = actions.first else {
            Issue.record("no unwatch first: \(actions)")
            return
        }
        #expect(dropped.count == before.count)
        #expect(dropped.allSatisfy { before.path(of: $0.key) == $0.value })
        #expect(Array(actions.dropFirst()) == [.watchSubtree("")])
        #expect(translator.table.count == 0)
    }

    @Test func cookieInRootIsRecognisedOnlyThere() {
        var translator = translator()
        #expect(translator.translate(KernelEvent(watch: 1, mask: .create, name: name(".ubq-cookie-1-1"))) == [.emit(.cookie(".ubq-cookie-1-1"))])
        #expect(translator.translate(KernelEvent(watch: 2, mask: .create, name: name(".ubq-cookie-1-1"))) == [.emit(.touched("c/Documents/.ubq-cookie-1-1", stillOpen: false))])
    }

    @Test func ignoredWatchIsForgotten() {
        var translator = translator()
        #expect(translator.translate(KernelEvent(watch: 3, mask: .ignored)) == [.forget([3])], "the kernel dropped it: nothing to remove")
        #expect(translator.translate(KernelEvent(watch: 3, mask: .closeWrite, name: name("f"))).isEmpty)
    }

    @Test func invalidUTF8NamesKeepTheirBytes() {
        var translator = translator()
        let raw: [UInt8] = [0x66, 0xFF, 0x0A, 0x67]
        guard case .emit(.touched(let path, _))? = translator.translate(KernelEvent(watch: 2, mask: .closeWrite, name: raw)).first else {
            Issue.record("no touch emitted")
            return
        }
        let bytes = path.withCString { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } }
        #expect(bytes.suffix(4) == raw[...])
    }
}

import Glibc
