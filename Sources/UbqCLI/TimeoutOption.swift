import ArgumentParser

/// `--timeout SECONDS` of the commands that take a coordinated claim.
enum TimeoutOption {
    /// A year: longer is no timeout a person means (and `nan`, `inf`, `1e300` trapped when
    /// made into a Duration).
    static let longest: Double = 365 * 86_400

    static func check(_ seconds: Double) throws {
        guard seconds.isFinite, (0...longest).contains(seconds) else {
            throw ValidationError("--timeout takes seconds from 0 to \(Int(longest)) (a year), not \(seconds); leave it out to wait as long as it takes")
        }
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }
}
