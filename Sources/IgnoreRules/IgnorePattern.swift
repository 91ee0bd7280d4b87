// One gitignore line, parsed and matched the way git's dir.c does it
// (`parse_path_pattern`, `match_basename`, `match_pathname`).

/// A parsed gitignore pattern and the folder its file lives in.
struct IgnorePattern: Sendable {
    /// The pattern bytes, without `!` and without the trailing `/`.
    let pattern: [UInt8]
    /// `!pattern`: a match re-includes the path.
    let isNegative: Bool
    /// `pattern/`: only directories match.
    let mustBeDirectory: Bool
    /// No `/` in the pattern: it matches the last path component at any depth.
    let matchesBasename: Bool
    /// `*literal`: a plain suffix test is enough.
    let isSuffixLiteral: Bool
    /// Bytes before the first glob special (`*?[\`).
    let literalPrefixLength: Int
    /// The folder of the ignore file, relative to the container, without a trailing `/`.
    let base: [UInt8]

    /// Parses a line that is neither a comment nor blank (trailing spaces already trimmed).
    init(line: ArraySlice<UInt8>, base: [UInt8]) {
        var bytes = line
        isNegative = bytes.first == Ascii.exclamation
        if isNegative { bytes = bytes.dropFirst() }
        mustBeDirectory = bytes.last == Ascii.slash
        if mustBeDirectory { bytes = bytes.dropLast() }
        pattern = Array(bytes)
        matchesBasename = !pattern.contains(Ascii.slash)
        let firstSpecial = pattern.firstIndex(where: Ascii.isGlobSpecial) ?? pattern.count
        literalPrefixLength = firstSpecial
        isSuffixLiteral = pattern.first == Ascii.star
            && !pattern.dropFirst().contains(where: Ascii.isGlobSpecial)
        self.base = base
    }

    /// Whether this pattern matches `path` (bytes relative to the container) whose last
    /// component starts at `basenameStart`.
    func matches(path: [UInt8], basenameStart: Int, isDirectory: Bool) -> Bool {
        if mustBeDirectory && !isDirectory { return false }
        if matchesBasename {
            guard isUnderBase(path) else { return false }
            return matchBasename(path[basenameStart...])
        }
        return matchPathname(path)
    }

    private func isUnderBase(_ path: [UInt8]) -> Bool {
        if base.isEmpty { return true }
        return path.count > base.count && path[base.count] == Ascii.slash && path.starts(with: base)
    }

    private func matchBasename(_ name: ArraySlice<UInt8>) -> Bool {
        if literalPrefixLength > 0 && !name.starts(with: pattern.prefix(literalPrefixLength)) { return false }
        if literalPrefixLength == pattern.count {
            return name.elementsEqual(pattern)
        }
        if isSuffixLiteral {
            return name.count >= pattern.count - 1 && name.suffix(pattern.count - 1).elementsEqual(pattern.dropFirst())
        }
        return Wildmatch.matches(pattern: pattern[...], text: name, pathname: false)
    }

    private func matchPathname(_ path: [UInt8]) -> Bool {
        var pat = pattern[...]
        var prefix = literalPrefixLength
        if pat.first == Ascii.slash {
            pat = pat.dropFirst()
            prefix -= 1
        }
        guard path.count >= base.count + 1 || base.isEmpty else { return false }
        guard base.isEmpty || isUnderBase(path) else { return false }
        var name = base.isEmpty ? path[...] : path[(base.count + 1)...]
        if prefix > 0 {
            if prefix > name.count { return false }
            if !name.prefix(prefix).elementsEqual(pat.prefix(prefix)) { return false }
            pat = pat.dropFirst(prefix)
            name = name.dropFirst(prefix)
            if pat.isEmpty && name.isEmpty { return true }
        }
        return Wildmatch.matches(pattern: pat, text: name, pathname: true)
    }
}
