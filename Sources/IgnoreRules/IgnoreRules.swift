/// Which paths of a container the daemon ignores (DESIGN.md decision 2): editor and sync
/// temporary files by default, plus `.ubqignore` files in full gitignore syntax.
///
/// Semantics are git's, checked against `git check-ignore` in the tests:
/// - within one file, later lines win; `!pattern` re-includes;
/// - a `.ubqignore` in folder `a/b` applies to paths under `a/b`, relative to it, and wins
///   over files in shallower folders (whatever order they were added in); among rules of the
///   same folder, rules added later win, so `.editorAndSyncTemporaries.adding(rootFile)`
///   lets the root `.ubqignore` re-include a default with `!`;
/// - a path under an ignored folder is ignored, whatever later rules say.
///
/// The daemon's own staging prefix `.ubq-` is always ignored and cannot be re-included.
///
/// Names and patterns are bytes, as in git on Linux: a name need not be UTF-8, and a
/// `.ubqignore` line that is not (a Latin-1 name) matches the same bytes in a name
/// (`parsingLeniently(bytes:baseDirectory:)`). Matching is case-sensitive and byte-wise
/// (`?` matches one byte).
public struct IgnoreRules: Sendable {
    /// Rules in ascending precedence: folder depth first, then the order they were added.
    private var rules: [IgnoreRule]

    init(rules: [IgnoreRule]) {
        self.rules = rules
    }

    /// No rules: nothing is ignored.
    public static let none = IgnoreRules(rules: [])

    /// Parses a `.ubqignore` file found in `baseDirectory` (relative to the container, ""
    /// for the root). Throws on the first unusable line, naming it.
    public init(parsing text: String, baseDirectory: String) throws(IgnoreRuleError) {
        let base = try IgnoreFileParser.normalizedBase(baseDirectory)
        let parsed = IgnoreFileParser.parse(text, base: base)
        if let first = parsed.problems.first { throw first }
        self.init(patterns: parsed.patterns, base: base)
    }

    /// Parses like `init(parsing:baseDirectory:)` but skips unusable lines, as git does, and
    /// returns them so the caller can log them.
    public static func parsingLeniently(
        _ text: String, baseDirectory: String
    ) throws(IgnoreRuleError) -> (rules: IgnoreRules, problems: [IgnoreRuleError]) {
        try parsingLeniently(bytes: Array(text.utf8), baseDirectory: baseDirectory)
    }

    /// `parsingLeniently` of a file's bytes as they are on disk: a line need not be UTF-8.
    public static func parsingLeniently(
        bytes: [UInt8], baseDirectory: String
    ) throws(IgnoreRuleError) -> (rules: IgnoreRules, problems: [IgnoreRuleError]) {
        let base = try IgnoreFileParser.normalizedBase(baseDirectory)
        let parsed = IgnoreFileParser.parse(bytes: bytes, base: base)
        return (IgnoreRules(patterns: parsed.patterns, base: base), parsed.problems)
    }

    init(patterns: [IgnorePattern], base: [UInt8], isFinal: Bool = false) {
        let depth = base.isEmpty ? 0 : base.split(separator: Ascii.slash).count
        rules = patterns.map { IgnoreRule(matcher: .pattern($0), depth: depth, isFinal: isFinal) }
    }

    /// These rules followed by `other`'s, which take precedence among rules of equal depth.
    public func adding(_ other: IgnoreRules) -> IgnoreRules {
        let merged = (rules + other.rules).enumerated().sorted { left, right in
            (left.element.depth, left.offset) < (right.element.depth, right.offset)
        }
        return IgnoreRules(rules: merged.map(\.element))
    }

    /// Whether `relativePath` ('/'-separated, relative to the container root) is ignored.
    /// `isDirectory` tells whether the path itself is a folder; its ancestors are folders.
    public func isIgnored(relativePath: String, isDirectory: Bool) -> Bool {
        isIgnored(relativePath: Array(relativePath.utf8), isDirectory: isDirectory)
    }

    /// The same for a raw path (names need not be UTF-8; patterns match their bytes).
    public func isIgnored(relativePath: [UInt8], isDirectory: Bool) -> Bool {
        let components = relativePath.split(separator: Ascii.slash, omittingEmptySubsequences: true)
        guard !components.isEmpty else { return false }
        var path: [UInt8] = []
        path.reserveCapacity(relativePath.count)
        for (index, component) in components.enumerated() {
            let basenameStart = path.isEmpty ? 0 : path.count + 1
            if !path.isEmpty { path.append(Ascii.slash) }
            path.append(contentsOf: component)
            let isLast = index == components.count - 1
            if isExcluded(path, basenameStart: basenameStart, isDirectory: isLast ? isDirectory : true) {
                return true
            }
        }
        return false
    }

    /// Whether an entry met by a tree walk is ignored, given that its folder is not (a walk
    /// never enters an ignored folder, and gitignore cannot re-include anything below
    /// one): only the last component is matched. `relativePath` is the raw '/'-separated
    /// path, relative to the container root, with no trailing slash.
    public func isIgnoredEntry(relativePath: [UInt8], isDirectory: Bool) -> Bool {
        guard !relativePath.isEmpty else { return false }
        let basenameStart = (relativePath.lastIndex(of: Ascii.slash) ?? -1) + 1
        return isExcluded(relativePath, basenameStart: basenameStart, isDirectory: isDirectory)
    }

    /// The number of rules, for diagnostics.
    public var count: Int { rules.count }

    private func isExcluded(_ path: [UInt8], basenameStart: Int, isDirectory: Bool) -> Bool {
        for rule in rules where rule.isFinal {
            if rule.matches(path, basenameStart: basenameStart, isDirectory: isDirectory) { return true }
        }
        for rule in rules.reversed() where !rule.isFinal {
            if rule.matches(path, basenameStart: basenameStart, isDirectory: isDirectory) {
                return !rule.isNegative
            }
        }
        return false
    }
}

/// One rule: a gitignore pattern or a built-in matcher gitignore syntax cannot express.
struct IgnoreRule: Sendable {
    enum Matcher: Sendable {
        case pattern(IgnorePattern)
        /// rsync's `.NAME.XXXXXX` temporary files (see `DefaultTemporaries`).
        case rsyncTemporary
    }

    let matcher: Matcher
    /// Number of components of the folder the rule came from.
    let depth: Int
    /// Always wins; negations cannot undo it (the daemon's own staging files).
    let isFinal: Bool

    var isNegative: Bool {
        if case .pattern(let pattern) = matcher { return pattern.isNegative }
        return false
    }

    func matches(_ path: [UInt8], basenameStart: Int, isDirectory: Bool) -> Bool {
        switch matcher {
        case .pattern(let pattern):
            pattern.matches(path: path, basenameStart: basenameStart, isDirectory: isDirectory)
        case .rsyncTemporary:
            !isDirectory && DefaultTemporaries.isRsyncTemporary(path[basenameStart...])
        }
    }
}
