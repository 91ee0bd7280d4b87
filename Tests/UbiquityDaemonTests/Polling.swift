import Testing

/// Checks `condition` until it holds, and fails the test if it does not within `timeout`:
/// for states that no event announces (a task parked at a gate, a thread started or ended).
func waitUntil(_ what: String, timeout: Duration = .seconds(60), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        try #require(ContinuousClock.now < deadline, "timed out waiting until \(what)")
        try await Task.sleep(for: .milliseconds(1))
    }
}
