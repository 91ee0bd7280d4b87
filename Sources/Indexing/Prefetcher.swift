import CStatx
import Foundation

/// Runs a producer on a thread of its own and hands what it yields over to the consuming
/// thread in chunks, through a buffer of at most `depth` chunks: both threads work at once
/// (on two cores, the disk walk alongside the index's writes), and the producer never gets
/// more than `depth × chunkSize` elements ahead, so memory stays small whatever the size of
/// the tree.
final class Prefetcher<Element: Sendable, Summary: Sendable>: @unchecked Sendable {
    // @unchecked: the shared state below is touched only with `condition` locked; `current`
    // and `position` only by the consuming thread.
    private let condition = NSCondition()
    private var chunks: [[Element]] = []
    private var summary: Summary?
    private var stopping = false
    private let depth: Int
    private var current: [Element] = []
    private var position = 0

    /// Starts `produce` at once. It hands over each element with `yield`, which returns
    /// false once the consumer has stopped listening (then `produce` should return soon),
    /// and returns a summary (its failures, say) that `finish()` hands back.
    init(chunkSize: Int = 1024, depth: Int = 8, produce: @escaping @Sendable (_ yield: (Element) -> Bool) -> Summary) {
        self.depth = depth
        let thread = Thread { [self] in
            _ = ubq_name_this_thread("ubq-prefetch")
            var chunk: [Element] = []
            chunk.reserveCapacity(chunkSize)
            let result = produce { element in
                chunk.append(element)
                guard chunk.count >= chunkSize else { return true }
                defer { chunk.removeAll(keepingCapacity: true) }
                return self.put(chunk)
            }
            _ = self.put(chunk)
            self.end(with: result)
        }
        thread.start()
    }

    /// The next element, waiting for the producer if need be; nil once it is done.
    func next() -> Element? {
        while position == current.count {
            guard let chunk = take() else { return nil }
            current = chunk
            position = 0
        }
        defer { position += 1 }
        return current[position]
    }

    /// Stops listening (a producer still running returns soon), waits for the producer to
    /// end and returns its summary. Call it once, also when the consumer gives up early.
    func finish() -> Summary {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        chunks.removeAll()
        condition.broadcast()
        while summary == nil { condition.wait() }
        return summary!
    }

    private func put(_ chunk: [Element]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= depth && !stopping { condition.wait() }
        guard !stopping else { return false }
        if !chunk.isEmpty { chunks.append(chunk) }
        condition.broadcast()
        return true
    }

    private func end(with result: Summary) {
        condition.lock()
        summary = result
        condition.broadcast()
        condition.unlock()
    }

    private func take() -> [Element]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && summary == nil { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        condition.broadcast()  // a slot is free
        return chunks.removeFirst()
    }
}
