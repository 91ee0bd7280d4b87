// Splits a gitignore-syntax file into patterns exactly as git's `add_patterns_from_buffer`
// does: one pattern per line, a trailing CR dropped, `#` comments, blank lines skipped,
// unescaped trailing spaces trimmed.

enum IgnoreFileParser {
    struct Parsed {
        var patterns: [IgnorePattern] = []
        var problems: [IgnoreRuleError] = []
    }

    static func parse(_ text: String, base: [UInt8]) -> Parsed { parse(bytes: Array(text.utf8), base: base) }

    /// The file as it is on disk: a line need not be UTF-8 (a Latin-1 name), since names
    /// are matched as bytes.
    static func parse(bytes: [UInt8], base: [UInt8]) -> Parsed {
        var parsed = Parsed()
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            var line = rawLine
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.isEmpty || line.first == Ascii.hash { continue }
            line = trimTrailingSpaces(line)
            if line.isEmpty { continue }
            let pattern = IgnorePattern(line: line, base: base)
            if let problem = PatternValidation.problem(in: pattern.pattern) {
                let shown = String(decoding: line, as: UTF8.self)
                parsed.problems.append(IgnoreRuleError(code: .invalidPattern, line: index + 1, message: "\"\(shown)\" \(problem)"))
                continue
            }
            parsed.patterns.append(pattern)
        }
        return parsed
    }

    /// git's `trim_trailing_spaces`: drops trailing spaces unless the first of them is escaped.
    static func trimTrailingSpaces(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var lastSpace: Int?
        var i = line.startIndex
        while i < line.endIndex {
            switch line[i] {
            case Ascii.space:
                if lastSpace == nil { lastSpace = i }
            case Ascii.backslash:
                i += 1
                if i >= line.endIndex { return line }
                lastSpace = nil
            default:
                lastSpace = nil
            }
            i += 1
        }
        if let lastSpace { return line[..<lastSpace] }
        return line
    }

    /// Validates and normalises a base folder: "" or "a/b", no leading or trailing `/`.
    static func normalizedBase(_ baseDirectory: String) throws(IgnoreRuleError) -> [UInt8] {
        let trimmed = baseDirectory.utf8.split(separator: Ascii.slash, omittingEmptySubsequences: true)
        if baseDirectory.hasPrefix("/") {
            throw IgnoreRuleError(code: .invalidBaseDirectory, line: 0,
                message: "base directory \"\(baseDirectory)\" must be relative to the container root (no leading '/')")
        }
        for component in trimmed where component.elementsEqual(".".utf8) || component.elementsEqual("..".utf8) {
            throw IgnoreRuleError(code: .invalidBaseDirectory, line: 0,
                message: "base directory \"\(baseDirectory)\" must not contain '.' or '..' components")
        }
        return Array(trimmed.joined(separator: [Ascii.slash]))
    }
}
