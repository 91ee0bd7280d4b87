// Byte constants and the POSIX character classes git's wildmatch understands (C locale).

enum Ascii {
    static let slash = UInt8(ascii: "/")
    static let backslash = UInt8(ascii: "\\")
    static let star = UInt8(ascii: "*")
    static let question = UInt8(ascii: "?")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let exclamation = UInt8(ascii: "!")
    static let caret = UInt8(ascii: "^")
    static let dash = UInt8(ascii: "-")
    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
    static let hash = UInt8(ascii: "#")
    static let dot = UInt8(ascii: ".")

    /// git's `is_glob_special`: the bytes that make a pattern more than a literal.
    static func isGlobSpecial(_ byte: UInt8) -> Bool {
        byte == star || byte == question || byte == openBracket || byte == backslash
    }

    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isAlpha(_ b: UInt8) -> Bool { isUpper(b) || isLower(b) }
    static func isAlnum(_ b: UInt8) -> Bool { isAlpha(b) || isDigit(b) }

    /// Membership of `b` in the POSIX class `name`, or nil when git does not know the class
    /// (git then never matches the pattern).
    static func isMember(_ b: UInt8, ofClass name: String) -> Bool? {
        switch name {
        case "alnum": isAlnum(b)
        case "alpha": isAlpha(b)
        case "blank": b == space || b == 0x09
        case "cntrl": b < 0x20 || b == 0x7F
        case "digit": isDigit(b)
        case "graph": b > 0x20 && b < 0x7F
        case "lower": isLower(b)
        case "print": b >= 0x20 && b < 0x7F
        case "punct": b > 0x20 && b < 0x7F && !isAlnum(b)
        case "space": b == space || (b >= 0x09 && b <= 0x0D)
        case "upper": isUpper(b)
        case "xdigit": isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
        default: nil
        }
    }
}
