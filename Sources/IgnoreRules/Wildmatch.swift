// Git's `wildmatch` (git/wildmatch.c), ported byte for byte so that `.ubqignore` patterns
// match exactly what `git check-ignore` matches. Works on UTF-8 bytes: `?` and `[...]`
// match one byte, as in git.

/// The outcome of one wildmatch step, as git defines it.
enum WildmatchResult: Equatable {
    case match
    case noMatch
    /// The pattern cannot match the rest of the text at all: stop every retry.
    case abortAll
    /// A single `*` reached a `/`: only an enclosing `**` may retry further.
    case abortToStarStar
}

/// Matches a gitignore glob against text.
///
/// - `pathname`: git's `WM_PATHNAME`: `*`, `?` and `[...]` never match `/`, and `**`
///   between slashes matches any number of folders.
struct Wildmatch {
    private let pattern: UnsafeBufferPointer<UInt8>
    private let text: UnsafeBufferPointer<UInt8>
    let pathname: Bool

    static func matches(pattern: ArraySlice<UInt8>, text: ArraySlice<UInt8>, pathname: Bool) -> Bool {
        pattern.withUnsafeBufferPointer { p in
            text.withUnsafeBufferPointer { t in
                Wildmatch(pattern: p, text: t, pathname: pathname).run(0, 0) == .match
            }
        }
    }

    /// Only valid inside the `withUnsafeBufferPointer` calls of `matches`.
    private init(pattern: UnsafeBufferPointer<UInt8>, text: UnsafeBufferPointer<UInt8>, pathname: Bool) {
        self.pattern = pattern
        self.text = text
        self.pathname = pathname
    }

    /// Pattern byte at `i`, or 0 past the end (git works on NUL-terminated strings).
    func p(_ i: Int) -> UInt8 { i < pattern.count ? pattern[i] : 0 }
    func t(_ i: Int) -> UInt8 { i < text.count ? text[i] : 0 }

    private func run(_ pStart: Int, _ tStart: Int) -> WildmatchResult {
        var pi = pStart
        var ti = tStart
        while p(pi) != 0 {
            let pCh = p(pi)
            let tCh = t(ti)
            if tCh == 0 && pCh != Ascii.star { return .abortAll }
            switch pCh {
            case Ascii.backslash:
                pi += 1
                if tCh != p(pi) { return .noMatch }
            case Ascii.question:
                if pathname && tCh == Ascii.slash { return .noMatch }
            case Ascii.star:
                switch star(&pi, &ti) {
                case .some(let result): return result
                case .none: break  // a single `*/` consumed one folder: continue at the slash
                }
            case Ascii.openBracket:
                let (result, end) = bracket(pi, tCh)
                if let result { return result }
                pi = end
            default:
                if tCh != pCh { return .noMatch }
            }
            pi += 1
            ti += 1
        }
        return t(ti) != 0 ? .noMatch : .match
    }

    /// Handles `*` and `**` at `pi`. Returns a final result, or nil when the loop goes on
    /// with `pi` and `ti` moved (git's `break` out of the switch).
    private func star(_ pi: inout Int, _ ti: inout Int) -> WildmatchResult? {
        var matchSlash: Bool
        pi += 1
        if p(pi) == Ascii.star {
            let previous = pi - 2
            while p(pi + 1) == Ascii.star { pi += 1 }
            pi += 1
            let atSegmentStart = previous < 0 || p(previous) == Ascii.slash
            let atSegmentEnd = p(pi) == 0 || p(pi) == Ascii.slash
                || (p(pi) == Ascii.backslash && p(pi + 1) == Ascii.slash)
            if atSegmentStart && atSegmentEnd {
                if p(pi) == Ascii.slash && run(pi + 1, ti) == .match { return .match }
                matchSlash = true
            } else {
                matchSlash = false
            }
        } else {
            matchSlash = !pathname
        }
        if p(pi) == 0 {
            if !matchSlash && nextSlash(from: ti) != nil { return .noMatch }
            return .match
        }
        if !matchSlash && p(pi) == Ascii.slash {
            guard let slash = nextSlash(from: ti) else { return .noMatch }
            ti = slash  // the caller steps past this slash and the pattern's `/` together
            return nil
        }
        return starLoop(pi, ti, matchSlash: matchSlash)
    }

    private func nextSlash(from start: Int) -> Int? {
        var i = start
        while i < text.count {
            if text[i] == Ascii.slash { return i }
            i += 1
        }
        return nil
    }

    private func starLoop(_ pi: Int, _ start: Int, matchSlash: Bool) -> WildmatchResult {
        var ti = start
        while t(ti) != 0 {
            let literal = p(pi)
            if !Ascii.isGlobSpecial(literal) {
                while t(ti) != 0 && (matchSlash || t(ti) != Ascii.slash) && t(ti) != literal { ti += 1 }
                if t(ti) != literal { return .noMatch }
            }
            let matched = run(pi, ti)
            if matched != .noMatch {
                if !matchSlash || matched != .abortToStarStar { return matched }
            } else if !matchSlash && t(ti) == Ascii.slash {
                return .abortToStarStar
            }
            ti += 1
        }
        return .abortAll
    }
}
