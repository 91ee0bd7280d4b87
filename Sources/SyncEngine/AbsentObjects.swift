import Glibc
import RawPaths
import Synchronization

/// Which objects a pass knows were not in the store when it began, without looking each
/// up: those named into an object folder (`sha256/ab/`) that did not exist then. The
/// folders are listed once, at the pass's first question.
///
/// On a first sync to an empty mirror that is every object. The 100,000 lookups of names
/// that were not there, which ext4 answers by searching the folder, took 0.5 s of the
/// pass's thread (perf). Without them the first sync was faster in each of 3 interleaved
/// pairs (scratch initloop.sh, each run on a new ext4): 8.51-8.81 s against 8.64-9.01 s,
/// with 5.43-5.55 s of CPU on the pass's thread against 5.93-6.02 s.
///
/// Only the first question about an object is answered so: the pass may have stored the
/// object since (two files with the same content), and it is looked up as always. An
/// object another device stores after the listing is stored again, which is harmless: the
/// same bytes, renamed over the same name.
final class AbsentObjects: Sendable {
    private let objects: String
    private let state = Mutex(State())

    private struct State {
        var listing = Listing.pending
        /// The objects asked about, by the first `askedPrefix` characters of their name
        /// (short strings need no allocation). Two objects alike in those only cost a lookup.
        var asked: Set<String> = []
    }

    private enum Listing {
        case pending
        /// The object folders that existed.
        case folders(Set<String>)
        /// The store's folder could not be read: every object is looked up.
        case unreadable
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
            if case .pending = state.listing { state.listing = Self.listing(objects) }
            guard case .folders(let folders) = state.listing, !folders.contains(String(sha256.prefix(2))) else { return true }
            return !state.asked.insert(String(sha256.prefix(Self.askedPrefix))).inserted
        }
    }

    /// The names in `objects`: none when it does not exist (an empty store).
    private static func listing(_ objects: String) -> Listing {
        guard let handle = opendir(objects) else { return errno == ENOENT ? .folders([]) : .unreadable }
        defer { closedir(handle) }
        return .folders(Set(DirectoryEntry.names(handle).map { String(decoding: $0, as: UTF8.self) }))
    }
}
