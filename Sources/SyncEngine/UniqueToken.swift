import Synchronization

/// The `<random>` part of temporary names (staged uploads, downloads being written, view
/// entries being replaced): a number drawn once per process, then a counter. Drawing a
/// fresh random number for each name asked the kernel (getrandom) every time: 0.05 s of
/// the sync pass's CPU in a first sync of 100,000 files (perf). Names stay unique: within
/// a process the counter sees to it, and two processes draw the same 64-bit number only
/// with negligible odds.
enum UniqueToken {
    private static let processPart = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        "\(processPart)-\(counter.add(1, ordering: .relaxed).newValue)"
    }
}
