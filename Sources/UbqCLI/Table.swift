/// A plain text table for terminals.
enum Table {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TerminalColumns.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - TerminalColumns.of(cell))
                if column == row.count - 1 && !rightAligned.contains(column) { return cell }
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `text` with each word (space-separated) longer than `longest` characters cut in its
    /// middle: a problem about a path 5,000 bytes long named it twice, 10 KB of one line
    /// where the reason at its end was lost. `--json` keeps them whole. Cut after
    /// `terminalSafe`, whose escapes lengthen a word.
    static func shortened(_ text: String, longest: Int = 160) -> String {
        guard text.count > longest else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard word.count > longest else { return String(word) }
            let kept = longest / 2
            return "\(word.prefix(kept))…(\(word.count - kept - kept / 2) characters)…\(word.suffix(kept / 2))"
        }.joined(separator: " ")
    }

    /// Makes a name safe to print on a terminal: control characters (a newline in a file
    /// name, an escape sequence) are shown escaped instead of acting. `keepingLayout`: line
    /// breaks and tabs stay as they are (a message's caret line, a diary entry's body).
    static func terminalSafe(_ text: String, keepingLayout: Bool = false) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n" where keepingLayout, "\t" where keepingLayout: result.unicodeScalars.append(scalar)
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
