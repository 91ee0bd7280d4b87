import SyncPlanning

/// Whether another device's clock and this one disagree: the latest line of its log dated
/// more than `tolerance` after this device's clock (a board with no battery-backed clock,
/// up before NTP set it; a clock set by hand, on either side). Sync goes on, and the
/// retention's bounds keep a clock that went back from cutting history short
/// (`HistoryRetention`), but the status says so: which of two changes made at once wins,
/// and the dates versions show, follow the writers' clocks.
enum ClockCheck {
    /// The retention's: a line further ahead than that bounds nothing there either.
    static let tolerance = HistoryRetention.aheadTolerance

    /// What the status says, naming the device whose latest line is furthest ahead; nil
    /// when none is past the tolerance. `lastRead`: each log's last line (`ContainerSync`).
    static func note(lastRead: [String: (sequence: UInt64, time: Int64)], own: String, now: Int64) -> String? {
        let ahead = lastRead.filter { $0.key != own }.map { (device: $0.key, by: $0.value.time.subtractingReportingOverflow(now)) }
            .filter { !$0.by.overflow && $0.by.partialValue > tolerance }
        guard let furthest = ahead.max(by: { $0.by.partialValue < $1.by.partialValue }) else { return nil }
        return "the latest change of device \(furthest.device) is dated \(span(furthest.by.partialValue)) after this device's clock: one of the two clocks is wrong (check both with `timedatectl`); sync goes on, but which of two changes made at once wins, and the dates of versions, follow the clocks"
    }

    /// `milliseconds` as whole hours under two days, whole days from there (rounded).
    static func span(_ milliseconds: Int64) -> String {
        let hours = (milliseconds / 1_800_000 + 1) / 2  // halves first: no sum that could overflow
        if hours < 48 { return hours == 1 ? "1 hour" : "\(hours) hours" }
        return "\((milliseconds / 43_200_000 + 1) / 2) days"
    }
}
