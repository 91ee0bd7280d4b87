/// Tells a pass's observer (`SyncEngine.longPassObserver`) once when the pass turns out
/// long, and once when the pass ends: the daemon's content reader waits meanwhile. A pass
/// is long from the moment its scan reads `SyncPass.longPassFrom` files or more, or a round
/// carries out that many actions, whichever comes first.
///
/// Before, only the plan's execution counted. The scan of a first sync, which reads and
/// copies every file, ran beside the content reader: its idle class kept the reading out
/// of the way only while both hashing threads ran, and they block in the kernel often
/// (creating the copies in `store/incoming/`, one folder for both); the index writes it
/// made, at normal priority, took their share as well. In a first sync of 100,000 files
/// (perf at 2 kHz, a new ext4) the scan took about 4.5 s with the reader beside it and
/// 2.5 s without.
final class LongWork {
    private let observer: (@Sendable (_ running: Bool) -> Void)?
    private var running = false

    init(observer: (@Sendable (_ running: Bool) -> Void)?) {
        self.observer = observer
    }

    deinit { end() }

    /// Notes `count` files to read or actions to carry out: long from `SyncPass.longPassFrom`.
    func note(_ count: Int) {
        guard count >= SyncPass.longPassFrom, !running else { return }
        running = true
        observer?(true)
    }

    /// The pass is over (or stopped early).
    func end() {
        guard running else { return }
        running = false
        observer?(false)
    }
}
