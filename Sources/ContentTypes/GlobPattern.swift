// Glob matching for shared-mime-info patterns: fnmatch(3) without flags (`*` and `?` also
// match `/` and leading dots, which never occur in a file name anyway), over UTF-8 bytes
// with `?` taking one whole character, and the case folding the spec asks for.

enum GlobPattern {
    /// Whether `pattern` contains glob syntax (`*`, `?`, `[`); otherwise it is a literal name.
    static func isLiteral(_ pattern: [UInt8]) -> Bool {
        !pattern.contains { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\") }
    }

    /// `*` followed by a literal starting with `.` (`*.txt`, `*.tar.gz`): looked up by suffix.
    static func simpleSuffix(_ pattern: [UInt8]) -> [UInt8]? {
        guard pattern.count > 1, pattern[0] == UInt8(ascii: "*"), pattern[1] == UInt8(ascii: ".") else { return nil }
        let rest = Array(pattern.dropFirst())
        return isLiteral(rest) ? rest : nil
    }

    /// Lower-cases a name for case-insensitive matching: Unicode lower case when the name
    /// is valid UTF-8, ASCII lower case of the bytes otherwise.
    static func folded(_ name: [UInt8]) -> [UInt8] {
        if name.allSatisfy({ $0 < 0x80 }) { return name.map(asciiLower) }
        if let string = String(validating: name, as: UTF8.self) { return Array(string.lowercased().utf8) }
        return name.map(asciiLower)
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    static func matches(_ pattern: [UInt8], _ name: [UInt8]) -> Bool {
        pattern.withUnsafeBufferPointer { p in
            name.withUnsafeBufferPointer { n in match(p, n) }
        }
    }

    /// Iterative wildcard matching: on a mismatch, retry from the last `*` one byte further.
    private static func match(_ p: UnsafeBufferPointer<UInt8>, _ n: UnsafeBufferPointer<UInt8>) -> Bool {
        var pi = 0, ni = 0
        var starP = -1, starN = 0
        while ni < n.count {
            if pi < p.count, let next = step(p, pi, n, ni) {
                (pi, ni) = next
            } else if pi < p.count && p[pi] == UInt8(ascii: "*") {
                starP = pi
                starN = ni
                pi += 1
            } else if starP >= 0 {
                starN += 1
                pi = starP + 1
                ni = starN
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }

    /// Matches one pattern element (not `*`) at `pi` against the name at `ni`; returns the
    /// positions after it, or nil on a mismatch.
    private static func step(_ p: UnsafeBufferPointer<UInt8>, _ pi: Int,
                             _ n: UnsafeBufferPointer<UInt8>, _ ni: Int) -> (Int, Int)? {
        switch p[pi] {
        case UInt8(ascii: "*"):
            return nil
        case UInt8(ascii: "?"):
            var next = ni + 1
            while next < n.count && n[next] & 0xC0 == 0x80 { next += 1 }
            return (pi + 1, next)
        case UInt8(ascii: "["):
            // An unclosed `[` is an ordinary byte, as in fnmatch.
            guard let (matched, after) = bracket(p, pi, n[ni]) else {
                return n[ni] == p[pi] ? (pi + 1, ni + 1) : nil
            }
            return matched ? (after, ni + 1) : nil
        case UInt8(ascii: "\\") where pi + 1 < p.count:
            return n[ni] == p[pi + 1] ? (pi + 2, ni + 1) : nil
        default:
            return n[ni] == p[pi] ? (pi + 1, ni + 1) : nil
        }
    }

    /// Matches one byte against the `[...]` at `open`: whether it matched and the index
    /// after the `]`; nil when the bracket is never closed.
    private static func bracket(_ p: UnsafeBufferPointer<UInt8>, _ open: Int, _ byte: UInt8) -> (Bool, Int)? {
        var i = open + 1
        let negated = i < p.count && (p[i] == UInt8(ascii: "!") || p[i] == UInt8(ascii: "^"))
        if negated { i += 1 }
        var matched = false
        var first = true
        while i < p.count {
            if p[i] == UInt8(ascii: "]") && !first { return (matched != negated, i + 1) }
            first = false
            if i + 2 < p.count, p[i + 1] == UInt8(ascii: "-"), p[i + 2] != UInt8(ascii: "]") {
                if byte >= p[i] && byte <= p[i + 2] { matched = true }
                i += 3
            } else {
                if p[i] == byte { matched = true }
                i += 1
            }
        }
        return nil
    }
}
