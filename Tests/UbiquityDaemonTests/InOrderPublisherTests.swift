import Synchronization
import Testing

@testable import UbiquityDaemon

/// `ubq sync` returns once the index shows what its pass found: it drains the publisher
/// that carries the pass's attributes to the index pipeline.
@Suite struct InOrderPublisherTests {
    @Test func drainReturnsOncePiecesHandedOverBeforeItAreDoneInOrder() async {
        let publisher = InOrderPublisher()
        let done = Mutex<[Int]>([])
        for piece in 0..<3 {
            publisher.enqueue {
                // Slower than the check below, were `drain` not to wait.
                try? await Task.sleep(for: .milliseconds(piece == 0 ? 50 : 1))
                done.withLock { $0.append(piece) }
            }
        }
        await publisher.drain()
        #expect(done.withLock { $0 } == [0, 1, 2])
    }

    @Test func drainWithNothingHandedOverReturnsAtOnce() async {
        await InOrderPublisher().drain()
    }
}
