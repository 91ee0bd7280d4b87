import SyncPlanning

/// When this device first read other devices' log lines: the retention's guard against a
/// writer whose clock ran behind.
///
/// A version stays for the retention after the version that replaced it, by that version's
/// `time`, its writer's clock. A writer whose clock runs behind (a board with no
/// battery-backed clock, up before NTP set it; a clock set by hand) dates its changes in
/// the past: what its edit replaced would look replaced long ago, and a collector would
/// delete its content at once. So a replacement counts from the later of its `time` and
/// the moment this device first read it (`seen`). Each device judges by its own reading
/// and its own clock, as a collector judges by its own clock already.
///
/// What is stored: checkpoints, per container and log, "lines up to `sequence` were read
/// by `seen`". The lines a log held when this device first read it are recorded as there
/// before (`before`): their own times stand, as they did before this guard. Later growth
/// gets a checkpoint at most once per `spacing`; a line read between checkpoints counts as
/// seen at the next one (later, so it is kept longer, never shorter), and a line past the
/// last checkpoint counts as seen now.
struct LogArrivals {
    struct Checkpoint: Equatable {
        var container: String
        var device: String
        var sequence: UInt64
        var seen: Int64
    }

    /// A checkpoint's `seen` for the lines a log held when this device first read it.
    static let before = Int64.min
    /// The least time between two checkpoints of one log: a log written all day gets 24 a
    /// day, not one per line.
    static let spacing: Int64 = 3_600_000

    /// By container and device, in the order of their sequences.
    private var checkpoints: [String: [String: [(sequence: UInt64, seen: Int64)]]] = [:]

    init(_ recorded: [Checkpoint] = []) {
        for checkpoint in recorded.sorted(by: { $0.sequence < $1.sequence }) { add(checkpoint) }
    }

    /// The checkpoint due now that `device`'s log in `container` was read up to `sequence`,
    /// kept here; nil if none is (the log did not grow, or the last was made less than
    /// `spacing` ago). The caller records it.
    mutating func due(container: String, device: String, readUpTo sequence: UInt64, now: Int64) -> Checkpoint? {
        let last = checkpoints[container]?[device]?.last
        if let last, sequence <= last.sequence || (last.seen != Self.before && now - last.seen < Self.spacing) { return nil }
        let checkpoint = Checkpoint(container: container, device: device, sequence: sequence, seen: last == nil ? Self.before : now)
        add(checkpoint)
        return checkpoint
    }

    /// When this device first read `id`'s line in `container`, at the latest; nil where the
    /// line's own time stands (a log never checkpointed here, its lines from before).
    func seen(_ id: VersionID, in container: String, now: Int64) -> Int64? {
        guard let log = checkpoints[container]?[id.device] else { return nil }
        // The first checkpoint at or past the line's sequence, by halving.
        var (low, high) = (0, log.count)
        while low < high {
            let middle = (low + high) / 2
            if log[middle].sequence < id.sequence { low = middle + 1 } else { high = middle }
        }
        guard low < log.count else { return now }
        return log[low].seen == Self.before ? nil : log[low].seen
    }

    private mutating func add(_ checkpoint: Checkpoint) {
        checkpoints[checkpoint.container, default: [:]][checkpoint.device, default: []].append((checkpoint.sequence, checkpoint.seen))
    }
}
