import Dispatch

/// Runs `other` on another thread while `body` runs on this one, and returns both
/// results once both are done. For two independent blocking reads, such as the disk walk
/// and the index's signatures of the same tree: on two cores each takes one.
func concurrently<A, B: Sendable>(_ body: () throws -> A, alongside other: @escaping @Sendable () throws -> B) throws -> (A, B) {
    let box = ResultBox<B>()
    let group = DispatchGroup()
    DispatchQueue.global(qos: .userInitiated).async(group: group) { box.result = Result { try other() } }
    let mine = Result { try body() }
    group.wait()
    return (try mine.get(), try box.result!.get())
}

/// Hands a result from the other thread over; `DispatchGroup.wait` orders the write
/// before the read.
private final class ResultBox<B>: @unchecked Sendable {
    var result: Result<B, any Error>?
}
