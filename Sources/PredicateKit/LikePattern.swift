/// A LIKE pattern: `*` matches any run of characters, `?` exactly one, a backslash makes
/// the next character literal. Characters are Unicode scalars, as SQLite's GLOB counts them.
struct LikePattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        case literal(Unicode.Scalar)
        case anyOne
        case anyRun
    }

    let elements: [Element]

    init(_ pattern: String) {
        var elements: [Element] = []
        var escaping = false
        for scalar in pattern.unicodeScalars {
            if escaping {
                elements.append(.literal(scalar))
                escaping = false
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "*": if elements.last != .anyRun { elements.append(.anyRun) }
            case "?": elements.append(.anyOne)
            default: elements.append(.literal(scalar))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// Iterative matching with one backtrack point per `*`: linear memory, no recursion.
    func matches(_ string: String) -> Bool {
        let text = Array(string.unicodeScalars)
        var textIndex = 0, patternIndex = 0
        var starPattern = -1, starText = 0
        while textIndex < text.count {
            if patternIndex < elements.count {
                switch elements[patternIndex] {
                case .anyRun:
                    starPattern = patternIndex
                    starText = textIndex
                    patternIndex += 1
                    continue
                case .anyOne:
                    textIndex += 1
                    patternIndex += 1
                    continue
                case .literal(let scalar) where scalar == text[textIndex]:
                    textIndex += 1
                    patternIndex += 1
                    continue
                default: break
                }
            }
            guard starPattern >= 0 else { return false }
            starText += 1
            textIndex = starText
            patternIndex = starPattern + 1
        }
        return elements[patternIndex...].allSatisfy { $0 == .anyRun }
    }

    /// The same pattern for SQLite's GLOB: `*` and `?` carry over, and the GLOB
    /// metacharacters `*`, `?` and `[` of literals are bracketed (`[*]`).
    var globPattern: String {
        var result = ""
        for element in elements {
            switch element {
            case .anyRun: result += "*"
            case .anyOne: result += "?"
            case .literal(let scalar): result += Self.globEscaped(scalar)
            }
        }
        return result
    }

    static func globEscaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "*", "?", "[": "[\(scalar)]"
        default: String(scalar)
        }
    }

    static func globEscaped(_ text: String) -> String { text.unicodeScalars.map { globEscaped($0) }.joined() }

    /// True when the pattern is only literals, optionally ending in one `*` (a prefix test).
    var literalPrefix: (text: String, isWholePattern: Bool)? {
        var text = String.UnicodeScalarView()
        for (offset, element) in elements.enumerated() {
            switch element {
            case .literal(let scalar): text.append(scalar)
            case .anyRun where offset == elements.count - 1: return (String(text), false)
            default: return nil
            }
        }
        return (String(text), true)
    }
}
