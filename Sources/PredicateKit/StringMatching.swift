/// The string operators: plain ordering, prefix/suffix/substring, LIKE and MATCHES.
/// Strings compare by Unicode scalars (UTF-8 byte order), as SQLite's BINARY collation
/// does, so that SQL and memory agree.
enum StringMatching {
    static func compare(_ left: String, _ right: String) -> Int {
        var leftBytes = left.utf8.makeIterator()
        var rightBytes = right.utf8.makeIterator()
        while true {
            switch (leftBytes.next(), rightBytes.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let a?, let b?) where a != b: return a < b ? -1 : 1
            default: continue
            }
        }
    }

    static func equal(_ left: String, _ right: String) -> Bool { left.utf8.elementsEqual(right.utf8) }

    /// An empty needle never matches, as `rangeOfString:` finds nothing for it.
    static func hasPrefix(_ string: String, _ prefix: String) -> Bool {
        !prefix.isEmpty && string.utf8.starts(with: prefix.utf8)
    }

    static func hasSuffix(_ string: String, _ suffix: String) -> Bool {
        !suffix.isEmpty && string.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    static func contains(_ string: String, _ needle: String) -> Bool {
        guard !needle.isEmpty else { return false }
        let haystack = Array(string.utf8), pattern = Array(needle.utf8)
        guard pattern.count <= haystack.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if haystack[start..<start + pattern.count].elementsEqual(pattern) { return true }
        }
        return false
    }

    /// With the word option (Spotlight `w`): the needle must start at a word start.
    static func containsAtWordStart(_ string: String, _ needle: String) -> Bool {
        guard !needle.isEmpty else { return false }
        var previousIsWord = false
        var index = string.unicodeScalars.startIndex
        while index < string.unicodeScalars.endIndex {
            let scalar = string.unicodeScalars[index]
            let isWord = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if isWord, !previousIsWord, string.unicodeScalars[index...].starts(with: needle.unicodeScalars) { return true }
            previousIsWord = isWord
            index = string.unicodeScalars.index(after: index)
        }
        return false
    }
}
