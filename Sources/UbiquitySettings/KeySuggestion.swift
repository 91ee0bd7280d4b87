/// Hints for a mistyped configuration key: the known key it most likely meant.
enum KeySuggestion {
    /// Keys people plausibly write for a known one, with the fix.
    private static let knownMistakes: [String: String] = [
        "containers": "write each container as a [[container]] table holding id = \"...\"",
        "state_directory": "did you mean 'state_dir'?",
        "runtime_directory": "did you mean 'runtime_dir'?",
        "settle": "did you mean 'settle_ms' (milliseconds)?",
        "ignores": "did you mean 'ignore' (an array of gitignore patterns)?",
        "poll_interval_ms": "it belongs in the [sync] table: write [sync] above it",
        "full_pass_interval_s": "it belongs in the [sync] table: write [sync] above it",
        "deletion_guard_percent": "it belongs in the [sync] table: write [sync] above it",
        "deletion_guard_minimum": "it belongs in the [sync] table: write [sync] above it",
    ]

    /// A hint for `key`, or nil when nothing known is close to it.
    static func hint(for key: String, known: [String]) -> String? {
        if let hint = knownMistakes[key], known.contains("root") { return hint }
        let lowered = String(key.lowercased().map { $0 == "-" ? "_" : $0 })
        let scored = known.map { (key: $0, distance: distance(lowered, $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }),
            best.distance <= max(1, best.key.count / 3)
        else { return nil }
        return "did you mean '\(best.key)'?"
    }

    /// "an integer", "a string": the type name TOMLKit gives, with its article.
    static func withArticle(_ noun: String) -> String {
        guard let first = noun.first else { return noun }
        return ("aeiou".contains(first) ? "an " : "a ") + noun
    }

    /// Levenshtein edit distance between two short strings.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs), b = Array(rhs)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
