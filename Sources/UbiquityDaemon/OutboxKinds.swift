import Foundation

/// The batches of updates waiting for one live-query client. Batches are shared arrays: a
/// batch pushed to fifty clients of one query is stored once.
typealias LiveOutbox = Outbox<[EncodedUpdate], LiveEnding>

/// Why a live query's stream ends.
enum LiveEnding: Sendable, Equatable {
    /// The client fell `capacity` updates behind.
    case dropped(pending: Int)
    case shuttingDown
    case failed(String)
}

extension Outbox where Item == [EncodedUpdate], Ending == LiveEnding {
    convenience init(capacity: Int) {
        self.init(capacity: capacity, overflow: { .dropped(pending: $0) }, cancelled: .failed("cancelled"))
    }

    /// A batch weighs its number of updates.
    func push(_ batch: [EncodedUpdate]) -> Bool {
        push(batch, weight: batch.count)
    }
}

/// The NDJSON lines waiting for one presenter session's stream; it ends with a reason.
typealias LineOutbox = Outbox<Data, String>

extension Outbox where Item == Data, Ending == String {
    /// A session that lets `capacity` lines pile up is ended (its process is not reading).
    convenience init(capacity: Int = 10_000) {
        self.init(
            capacity: capacity, overflow: { _ in "\(capacity) messages were waiting for this session: it does not read them" },
            cancelled: "cancelled")
    }

    func push(_ line: Data) -> Bool {
        push(line, weight: 1)
    }
}
