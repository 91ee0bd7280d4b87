import Glibc
import RawPaths
import Synchronization

/// Which objects a pass knows were not in the store when it began, without looking each
/// up: those named into an object folder (`sha256/ab/`) that did not exist then. The
/// folders are listed once, at the pass's first question.
///
/// On a first sync to an empty mirror that is every object. The 100,000 lookups of names
/// that were not there, which ext4 answers by searching the folder, took 0.5 s of the
/// pass's thread (perf); without them the first sync took 8.51-8.81 s instead of
/// 8.64-9.01 s (scratch initloop.sh: runs interleaved, each on a new ext4).
///
/// Only the first question about an object is answered so: the pass may have stored the
/// object since (two files with the same content), and it is looked up as always. An
/// object another device stores after the listing is stored again, which is harmless: the
/// same bytes, renamed over the same name.
final class AbsentObjects: Sendable {
    private let objects: String
    private let state = Mutex(State())

    private struct State {
        /// The object folders that existed at the listing; nil before it, and when the
        /// store's folder could not be read (then every object is looked up).
        var folders: Set<String>?
        var listed = false
        /// The objects asked about, by the first `askedPrefix` characters of their name
        /// (short strings need no allocation). Two objects alike in those only cost a lookup.
        var asked: Set<String> = []
    }

    static let askedPrefix = 15

    /// For the store whose object folders are in `objects` (`MirrorLayout.objects`).
    init(objects: String) {
        self.objects = objects
    }

    /// Whether the store may hold `sha256`: false only the first time it is asked about,
    /// if its folder did not exist at the listing.
    func mayHold(_ sha256: String) -> Bool {
        state.withLock { state in
            if !state.listed {
                state.folders = Self.folders(in: objects)
                state.listed = true
            }
            guard let folders = state.folders, !folders.contains(String(sha256.prefix(2))) else { return true }
            return !state.asked.insert(String(sha256.prefix(Self.askedPrefix))).inserted
        }
    }

    /// The names in `objects`; none when it does not exist (an empty store), nil when it
    /// cannot be read.
    private static func folders(in objects: String) -> Set<String>? {
        guard let handle = opendir(objects) else { return errno == ENOENT ? [] : nil }
        defer { closedir(handle) }
        return Set(DirectoryEntry.names(handle).map { String(decoding: $0, as: UTF8.self) })
    }
}
