/// How long replaced and deleted versions stay in the history, and so which content the
/// mirror's store must keep (docs/MIRROR-FORMAT.md, "Retention").
///
/// A head (the current version or an unresolved conflict) is always kept, however old.
/// Any other version is kept until the version that replaced it (or deleted its path) is
/// older than the retention: "kept for 30 days after it stopped being current", as iCloud
/// Drive and Dropbox count. Times are the writers' clocks, so every device that reads the
/// same logs decides alike; except that a replacement counts from the moment the deciding
/// device first read it when that is later (`seen`: a writer whose clock ran behind would
/// date it in the past, and what it replaced would go at once).
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
    public func keeps(_ record: VersionRecord, in history: PathHistory, now: Int64, seen: Seen = { _ in nil }) -> Bool {
        !history.forgotten.contains(record.id) && keeps(replacedAt: history.replacementTime(of: record.id, seen: seen), now: now)
    }

    /// When the deciding device first read a version's line, if later than its time counts
    /// (nil: its time stands).
    public typealias Seen = (VersionID) -> Int64?

    /// Whether a version replaced at `replacedAt` (nil: a head) is still kept at `now`.
    public func keeps(replacedAt: Int64?, now: Int64) -> Bool {
        guard let keepMilliseconds, let replacedAt else { return true }
        // A log line's time is its writer's word, any Int64: the age must not overflow.
        let (age, overflow) = now.subtractingReportingOverflow(replacedAt)
        return overflow ? replacedAt > now : age < keepMilliseconds
    }

    /// The content (SHA-256 hashes) that the versions still kept at `now` name.
    public func neededContent(_ histories: some Sequence<PathHistory>, now: Int64, seen: Seen = { _ in nil }) -> Set<String> {
        var needed: Set<String> = []
        for history in histories {
            let replaced = history.replacementTimes(seen: seen)
            let forgotten = history.forgotten
            for record in history.records where !forgotten.contains(record.id) {
                if let sha256 = record.state?.sha256, keeps(replacedAt: replaced[record.id], now: now) { needed.insert(sha256) }
            }
        }
        return needed
    }
}

extension PathHistory {
    /// For each replaced version, when it was first replaced: the earliest time among
    /// the versions naming it as a parent, each counted from when it was `seen` if later.
    public func replacementTimes(seen: HistoryRetention.Seen = { _ in nil }) -> [VersionID: Int64] {
        var times: [VersionID: Int64] = [:]
        for record in records {
            let time = Self.counted(record, seen)
            for parent in record.parents { times[parent] = min(times[parent] ?? .max, time) }
        }
        return times
    }

    /// When `id` was first replaced (as `replacementTimes`); nil while it is a head.
    public func replacementTime(of id: VersionID, seen: HistoryRetention.Seen = { _ in nil }) -> Int64? {
        records.filter { $0.parents.contains(id) }.map { Self.counted($0, seen) }.min()
    }

    private static func counted(_ record: VersionRecord, _ seen: HistoryRetention.Seen) -> Int64 {
        max(record.time, seen(record.id) ?? .min)
    }
}
