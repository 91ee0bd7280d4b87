/// Lets a document's loads and saves run one at a time. A document's methods interleave at
/// each `await` (a claim, ubqd), and two saves at once would each expect the version the
/// other replaces: the second would be refused as `changedOnDisk`. An autosave may meet a
/// `close()`, a save another program asked for may meet the app's own. Used on the
/// document's isolation only, like the document.
final class OneAtATime {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// How many operations wait for their turn.
    var waitingCount: Int { waiting.count }

    /// Runs `body` once every operation that came before it has ended.
    func run<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(DocumentError) -> T
    ) async throws(DocumentError) -> T {
        if busy {
            await withCheckedContinuation(isolation: isolation) { waiting.append($0) }  // handed the turn: still busy
        }
        busy = true
        defer { handOver() }
        return try await body()
    }

    private func handOver() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
