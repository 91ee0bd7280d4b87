import CStatx

/// How many columns a terminal gives a text: a wide East Asian character takes two, a
/// combining mark none, so counting characters misaligned `ubq` tables of such names (a
/// Japanese file name, a name that starts with a combining mark). The widths are glibc's
/// `wcwidth`, read under a UTF-8 locale whatever the user's is (`ubq_terminal_columns`).
enum TerminalColumns {
    static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var columns = 0
        for scalar in text.unicodeScalars {
            let width = ubq_terminal_columns(scalar.value)
            if width == -2 { return text.count }  // no UTF-8 locale: a column a character, as before
            columns += width < 0 ? 1 : Int(width)  // a control or unassigned: one, as shown escaped
        }
        return columns
    }
}
