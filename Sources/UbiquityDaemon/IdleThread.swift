import CStatx
import Dispatch
import Foundation
import Synchronization

/// A thread of its own that runs the jobs given to it one after the other, scheduled only
/// when a core has nothing else to do (SCHED_IDLE), as background indexers are (Tracker,
/// Baloo). For work that must not slow what the user waits for: the content of 100,000
/// new files, read for full-text search beside a first sync (scratch init2.sh, a mirror
/// on tmpfs, medians of 3 interleaved on this machine's 2 cores): the sync took 9.45 s
/// with the reader at normal priority, 8.90 s with it idle, 8.4 s with no reader at all;
/// the reading itself took 6.5 s instead of 5.8 s.
///
/// The class does not starve, but it comes last: the scheduler weighs such a thread 3
/// against a normal thread's 1024, so on a core a normal thread keeps busy it gets about
/// a 340th of the time (from the weights; not measured here). A job that holds something
/// others wait for (the reader holds a read claim on the files of a group) holds it that
/// much longer then.
///
/// A dispatch queue cannot be used for this: its jobs go to a pool's threads, and a thread
/// cannot leave the idle class again without CAP_SYS_NICE. The thread ends with the
/// object.
final class IdleThread: Sendable {
    private let jobs = Jobs()

    /// `name` shows in `top -H` and `perf` (15 bytes at most). `ended` is the thread's last
    /// act, after the last job: a test waits for it rather than polling the process's
    /// threads, which an idle thread on a busy machine may keep waiting a long time.
    init(name: String, ended: @escaping @Sendable () -> Void = {}) {
        let jobs = self.jobs
        Thread {
            _ = ubq_name_this_thread(name)
            jobs.run()
            ended()
        }.start()
    }

    deinit { jobs.close() }

    /// Runs `job` on the thread, after those given before.
    func async(_ job: @escaping @Sendable () -> Void) {
        jobs.add(job)
    }

    /// The queue the thread drains, shared with it (the thread must not keep the
    /// `IdleThread` alive, or it would never end).
    private final class Jobs: Sendable {
        private let queue = Mutex<[@Sendable () -> Void]>([])
        private let waiting = DispatchSemaphore(value: 0)

        func add(_ job: @escaping @Sendable () -> Void) {
            queue.withLock { $0.append(job) }
            waiting.signal()
        }

        /// Ends the thread once the jobs added before have run: a wake-up with no job.
        func close() {
            waiting.signal()
        }

        /// The thread's body. A thread that cannot be made idle (a kernel without the
        /// class) runs its jobs at normal priority: slower for the rest, never wrong.
        func run() {
            _ = ubq_schedule_when_idle()
            while true {
                waiting.wait()
                // Each job added signals once, and `close` once more.
                guard let next = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
                next()
            }
        }
    }
}
