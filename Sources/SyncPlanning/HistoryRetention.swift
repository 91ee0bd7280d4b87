/// How long replaced and deleted versions stay in the history, and so which content the
/// mirror's store must keep (docs/MIRROR-FORMAT.md, "Retention").
///
/// A head (the current version or an unresolved conflict) is always kept, however old.
/// Any other version is kept until the version that replaced it (or deleted its path) is
/// older than the retention: "kept for 30 days after it stopped being current", as iCloud
/// Drive and Dropbox count. Times are the writers' clocks, read from the logs, so every
/// device that reads the same logs decides alike. A replacement counts from no earlier than
/// the versions it replaces count from, nor than its writer's earlier lines (`Floor`;
/// `PathHistory.countedTimes`): a writer whose clock went back (a board with no
/// battery-backed clock, reset to 1970) dates its edit in the past, and what it replaced
/// would otherwise look replaced long ago and be collected at once.
public struct HistoryRetention: Sendable, Equatable {
    /// How long a replaced version stays, in milliseconds; nil keeps everything forever.
    public var keepMilliseconds: Int64?

    public init(keepMilliseconds: Int64?) {
        self.keepMilliseconds = keepMilliseconds
    }

    public static let forever = HistoryRetention(keepMilliseconds: nil)

    public static func days(_ days: Int) -> HistoryRetention {
        HistoryRetention(keepMilliseconds: Int64(days) * 86_400_000)
    }

    /// Whether `record` of `history` is still kept at `now` (milliseconds since 1970): a
    /// version that a later one removed from the history (`PathHistory.forgotten`) is not.
    public func keeps(_ record: VersionRecord, in history: PathHistory, now: Int64, floor: Floor = { _ in nil }) -> Bool {
        !history.forgotten.contains(record.id)
            && keeps(replacedAt: history.replacementTime(of: record.id, floor: floor, ceiling: Self.ceiling(now)), now: now)
    }

    /// How far ahead of the deciding device's clock a bound on a replacement's time may be
    /// (`PathHistory.countedTimes`): clocks not set by NTP drift by seconds a day.
    public static let aheadTolerance: Int64 = 3_600_000

    static func ceiling(_ now: Int64) -> Int64 {
        let (ceiling, overflow) = now.addingReportingOverflow(aheadTolerance)
        return overflow ? .max : ceiling
    }

    /// The latest time among the lines written before a version's in its writer's log, where
    /// that is later than the version's own time (a clock that went back); nil otherwise.
    public typealias Floor = (VersionID) -> Int64?

    /// The versions of `history` still kept at `now`, newest first (`PathHistory.newestFirst`).
    public func kept(_ history: PathHistory, now: Int64, floor: Floor = { _ in nil }) -> [VersionRecord] {
        let replaced = history.replacementTimes(floor: floor, ceiling: Self.ceiling(now))
        let forgotten = history.forgotten
        return history.newestFirst.filter { !forgotten.contains($0.id) && keeps(replacedAt: replaced[$0.id], now: now) }
    }

    /// Whether a version replaced at `replacedAt` (nil: a head) is still kept at `now`.
    public func keeps(replacedAt: Int64?, now: Int64) -> Bool {
        guard let keepMilliseconds, let replacedAt else { return true }
        // A log line's time is its writer's word, any Int64: the age must not overflow.
        let (age, overflow) = now.subtractingReportingOverflow(replacedAt)
        return overflow ? replacedAt > now : age < keepMilliseconds
    }

    /// The content (SHA-256 hashes) that the versions still kept at `now` name.
    public func neededContent(_ histories: some Sequence<PathHistory>, now: Int64, floor: Floor = { _ in nil }) -> Set<String> {
        var needed: Set<String> = []
        for history in histories {
            let replaced = history.replacementTimes(floor: floor, ceiling: Self.ceiling(now))
            let forgotten = history.forgotten
            for record in history.records where !forgotten.contains(record.id) {
                if let sha256 = record.state?.sha256, keeps(replacedAt: replaced[record.id], now: now) { needed.insert(sha256) }
            }
        }
        return needed
    }
}

extension PathHistory {
    /// For each replaced version, when it was first replaced: the earliest among the
    /// versions naming it as a parent, each as it counts (`countedTimes`).
    public func replacementTimes(floor: HistoryRetention.Floor = { _ in nil }, ceiling: Int64 = .max) -> [VersionID: Int64] {
        let counted = countedTimes(floor: floor, ceiling: ceiling)
        var times: [VersionID: Int64] = [:]
        for record in records {
            let time = counted[record.id] ?? record.time
            for parent in record.parents { times[parent] = min(times[parent] ?? .max, time) }
        }
        return times
    }

    /// When `id` was first replaced (as `replacementTimes`); nil while it is a head.
    public func replacementTime(of id: VersionID, floor: HistoryRetention.Floor = { _ in nil }, ceiling: Int64 = .max) -> Int64? {
        replacementTimes(floor: floor, ceiling: ceiling)[id]
    }

    /// When each version counts as made for the retention: its time, but no earlier than
    /// the versions it replaces (those of this path) count as made, nor than its writer's
    /// earlier lines (`floor`). A bound past `ceiling` is ignored: a line dated far ahead
    /// (a clock set wrong, since put right) is not to keep everything after it for years.
    ///
    /// Parents first, with a stack of its own rather than recursion: a file edited 100,000
    /// times is a chain that deep. A cycle (only a log written by hand has one) is cut where
    /// it is met, the parent counting by its own time there.
    public func countedTimes(floor: HistoryRetention.Floor, ceiling: Int64) -> [VersionID: Int64] {
        var counted: [VersionID: Int64] = [:]
        var entered: Set<VersionID> = []
        for start in records where counted[start.id] == nil {
            var stack = [start]
            while let record = stack.last {
                if counted[record.id] != nil {
                    stack.removeLast()  // met twice on the way
                    continue
                }
                if entered.insert(record.id).inserted {
                    let waiting = record.parents.filter { counted[$0] == nil && !entered.contains($0) }.compactMap(self.record)
                    if !waiting.isEmpty {
                        stack += waiting
                        continue
                    }
                }
                stack.removeLast()
                var time = record.time
                for bound in [floor(record.id)] + record.parents.map({ counted[$0] ?? self.record($0)?.time }) {
                    if let bound, bound <= ceiling { time = max(time, bound) }
                }
                counted[record.id] = time
            }
        }
        return counted
    }
}
