// The file-name rules of the shared-mime-info spec ("Recommended checking order"):
// literal names first; otherwise every matching glob, keeping the highest weight, then the
// longest pattern. Matching is case-insensitive unless a glob carries the `cs` flag.

/// One `weight:type:pattern[:flags]` line of `globs2`.
struct Glob: Sendable {
    var mimeType: String
    var weight: Int
    /// As written for case-sensitive globs, lower-cased otherwise.
    var pattern: [UInt8]
    var caseSensitive: Bool
}

/// The globs of all database folders, indexed for fast lookup.
struct GlobIndex: Sendable {
    private var literals: [[UInt8]: [Glob]] = [:]
    /// `*.ext` globs keyed by `.ext`.
    private var suffixes: [[UInt8]: [Glob]] = [:]
    private var others: [OtherGlob] = []
    /// Length of the longest key in `suffixes`, to bound the lookups.
    private var longestSuffix = 0

    init(_ globs: [Glob]) {
        for glob in globs {
            if GlobPattern.isLiteral(glob.pattern) {
                literals[glob.pattern, default: []].append(glob)
            } else if let suffix = GlobPattern.simpleSuffix(glob.pattern) {
                suffixes[suffix, default: []].append(glob)
                longestSuffix = max(longestSuffix, suffix.count)
            } else {
                others.append(OtherGlob(glob))
            }
        }
    }

    /// The MIME types the name points to, best first: one when the name decides, several
    /// when equally good globs disagree, none when no glob matches.
    func mimeTypes(forName name: [UInt8]) -> [String] {
        let folded = GlobPattern.folded(name)
        let literal = candidates(in: literals[name], name: name, folded: folded)
            + candidates(in: folded == name ? nil : literals[folded], name: name, folded: folded)
        if !literal.isEmpty { return best(literal) }
        var found = suffixMatches(name, folded: folded)
        for other in others {
            let subject = other.glob.caseSensitive ? name : folded
            if subject.starts(with: other.prefix) && subject.reversed().starts(with: other.reversedSuffix)
                && GlobPattern.matches(other.glob.pattern, subject) {
                found.append(other.glob)
            }
        }
        return best(found)
    }

    private func candidates(in globs: [Glob]?, name: [UInt8], folded: [UInt8]) -> [Glob] {
        guard let globs else { return [] }
        return globs.filter { $0.pattern == ($0.caseSensitive ? name : folded) }
    }

    private func suffixMatches(_ name: [UInt8], folded: [UInt8]) -> [Glob] {
        var found: [Glob] = []
        for (bytes, caseSensitive) in [(name, true), (folded, false)] {
            let start = max(0, bytes.count - longestSuffix)
            for index in start..<bytes.count where bytes[index] == UInt8(ascii: ".") {
                guard let globs = suffixes[Array(bytes[index...])] else { continue }
                found += globs.filter { $0.caseSensitive == caseSensitive }
            }
        }
        return found
    }

    /// Highest weight, then longest pattern; distinct types in database order.
    private func best(_ globs: [Glob]) -> [String] {
        guard let weight = globs.map(\.weight).max() else { return [] }
        let heaviest = globs.filter { $0.weight == weight }
        let length = heaviest.map(\.pattern.count).max() ?? 0
        var result: [String] = []
        for glob in heaviest where glob.pattern.count == length && !result.contains(glob.mimeType) {
            result.append(glob.mimeType)
        }
        return result
    }
}

/// A glob that needs full matching, with the literal ends every match must have, to skip
/// most names without running the matcher.
private struct OtherGlob: Sendable {
    let glob: Glob
    let prefix: [UInt8]
    let reversedSuffix: [UInt8]

    init(_ glob: Glob) {
        self.glob = glob
        let isSpecial: (UInt8) -> Bool = { !GlobPattern.isLiteral([$0]) }
        prefix = Array(glob.pattern.prefix { !isSpecial($0) })
        let hasEscape = glob.pattern.contains(UInt8(ascii: "\\"))
        reversedSuffix = hasEscape ? [] : Array(glob.pattern.reversed().prefix { !isSpecial($0) })
    }
}
