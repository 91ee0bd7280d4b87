import Crypto
import Diary
import KeyedArchive
import SyncPlanning

/// DESIGN.md, decision 5: two concurrent versions of a diary are merged entry by entry,
/// three-way against their common ancestor, instead of forking a conflict version.
///
/// Every device that sees the conflict computes the same merged bytes (the merge is
/// deterministic and so is the encoding), so devices merging at once agree without talking.
enum DiaryConflictMerge {
    /// The merged diary of `winner` and `loser`, or nil when either is not a diary. An entry
    /// both changed in the same field keeps the winner's values, and the loser's version of
    /// it is added as a separate entry titled "… (conflict)", so both stay in the diary.
    static func merge(winner: [UInt8], loser: [UInt8], ancestor: [UInt8]?, loserVersion: VersionID) -> [UInt8]? {
        guard let winning = try? DiaryArchive.decode(winner), let losing = try? DiaryArchive.decode(loser) else { return nil }
        let base = ancestor.flatMap { try? DiaryArchive.decode($0) } ?? []
        let result = DiaryMerge.merge(base: base, winner: winning, loser: losing)
        var entries = result.entries
        for clash in result.clashes {
            var copy = clash.lost
            var generator = SeededGenerator(seed: "\(clash.entryID) \(loserVersion)")
            copy.id = DiaryEntry.makeID(using: &generator)
            copy.title += " (conflict)"
            entries.append(copy)
        }
        return try? DiaryArchive.encode(entries)
    }
}

/// Random numbers drawn from a SHA-256 of `seed`: the same ids on every device.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: String) {
        state = SHA256.hash(data: Array(seed.utf8)).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
