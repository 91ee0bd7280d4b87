/// How long replaced and deleted versions stay in the history, and so which content the
/// mirror's store must keep (docs/MIRROR-FORMAT.md, "Retention").
///
/// A head (the current version or an unresolved conflict) is always kept, however old.
/// Any other version is kept until the version that replaced it (or deleted its path) is
/// older than the retention: "kept for 30 days after it stopped being current", as iCloud
/// Drive and Dropbox count. Times are the writers' clocks, read from the logs, so every
/// device that reads the same logs decides alike. A replacement counts from no earlier than
/// the versions it replaces were made, nor than its writer's earlier lines (`Floor`): a
/// writer whose clock went back (a board with no battery-backed clock, reset to 1970) dates
/// its edit in the past, and what it replaced would otherwise look replaced long ago and be
/// collected at once.
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
        !history.forgotten.contains(record.id) && keeps(replacedAt: history.replacementTime(of: record.id, floor: floor), now: now)
    }

    /// The latest time among the lines written before a version's in its writer's log, where
    /// that is later than the version's own time (a clock that went back); nil otherwise.
    public typealias Floor = (VersionID) -> Int64?

    /// The versions of `history` still kept at `now`, newest first (`PathHistory.newestFirst`).
    public func kept(_ history: PathHistory, now: Int64, floor: Floor = { _ in nil }) -> [VersionRecord] {
        let replaced = history.replacementTimes(floor: floor)
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
            let replaced = history.replacementTimes(floor: floor)
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
    /// versions naming it as a parent, each as it counts (`countedTime`).
    public func replacementTimes(floor: HistoryRetention.Floor = { _ in nil }) -> [VersionID: Int64] {
        var times: [VersionID: Int64] = [:]
        for record in records {
            let time = countedTime(of: record, floor: floor)
            for parent in record.parents { times[parent] = min(times[parent] ?? .max, time) }
        }
        return times
    }

    /// When `id` was first replaced (as `replacementTimes`); nil while it is a head.
    public func replacementTime(of id: VersionID, floor: HistoryRetention.Floor = { _ in nil }) -> Int64? {
        records.filter { $0.parents.contains(id) }.map { countedTime(of: $0, floor: floor) }.min()
    }

    /// When `record` counts as made for the retention: its time, but not before the versions
    /// it replaces (those of this path) were made, nor before its writer's earlier lines.
    public func countedTime(of record: VersionRecord, floor: HistoryRetention.Floor) -> Int64 {
        var time = max(record.time, floor(record.id) ?? .min)
        for parent in record.parents {
            if let made = self.record(parent)?.time { time = max(time, made) }
        }
        return time
    }
}
