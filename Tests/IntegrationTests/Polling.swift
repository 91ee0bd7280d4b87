import Foundation
import TestSupport

/// Checks `condition` every 20 ms until it holds; throws, naming `what`, after `timeout`
/// of time this wait was given to run (`StallAwareDeadline`).
///
/// For tests that wait on work of this process (a presenter's registration, a stream's
/// notice): the wait gives its thread back between checks. The cooperative pool has one
/// thread per core, 2 on the CI machine, and the other suites running in parallel may hold
/// the rest; a wait that blocked its thread (`usleep`) could starve the very task it waits
/// for until the timeout.
func poll(until what: @autoclosure () -> String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) async throws {
    var deadline = StallAwareDeadline(timeout)
    while try !condition() {
        guard !deadline.hasPassed else { throw HarnessError("not within \(deadline): \(what())") }
        try await deadline.sleep()
    }
}
