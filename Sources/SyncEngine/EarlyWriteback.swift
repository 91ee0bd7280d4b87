import Foundation

/// Starts writing a long pass's early copies to the disk as soon as the scan has made them,
/// with a `syncfs` on a thread of its own: the disk works while the pass plans and stages
/// its first batch, whose own `syncfs` then finds most of the copies written.
///
/// The kernel leaves fresh writes in memory for up to 30 s unless they are many GiB, so
/// before, nothing was written until that first batch's `syncfs`, which then wrote every
/// copy at once: the pass waited 1.1-1.5 s for it with both cores nearly idle (perf, a
/// first sync of 100,000 files on a new ext4). With the writing started here the sync
/// took 9.35-9.78 s against 9.56-10.07 s, better in each of 12 interleaved pairs (about
/// 0.25 s; scratch hackloop.sh). Starting the writing of each copy as it was made
/// (`sync_file_range`) cost more CPU than it saved: 10.6-10.8 s.
enum EarlyWriteback {
    /// From how many early copies: the batch capacity when the gain above was measured
    /// (on 100,000 copies). Smaller passes were not measured; they keep to their batches'
    /// own `syncfs`.
    static let minimumCopies = 4096

    /// Starts the writing of `copies` early copies, together `footprint` bytes of dirty
    /// memory, when the batches will sync them with `syncfs` (`BatchDurability`: a local
    /// filesystem, and not much else dirty); returns whether it did. Its errors are left to
    /// the batches' own `syncfs`, which makes the copies durable.
    @discardableResult
    static func start(copies: Int, footprint: Int64, anchor: String, faults: FaultInjection?) -> Bool {
        guard copies >= minimumCopies else { return false }
        let durability = BatchDurability(anchor: anchor, sizes: [], pending: footprint, faults: faults)
        guard durability.wholeFilesystem else { return false }
        Thread { try? durability.syncFilesystem() }.start()
        return true
    }
}
