/// Byte counts that stop at Int64's end instead of trapping. A file's size is whatever its
/// filesystem allows (2^63 - 1 bytes on XFS, Btrfs and tmpfs, holes and all) and a log
/// line's size is whatever its writer wrote: sums of them must not take ubqd down.
extension Int64 {
    func addingSaturated(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    func multipliedSaturated(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}

extension Sequence where Element == Int64 {
    /// The sum, saturated at Int64's ends.
    var saturatedSum: Int64 { reduce(0) { $0.addingSaturated($1) } }
}
