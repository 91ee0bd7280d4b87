// The `[...]` part of git's wildmatch: sets, ranges, `!`/`^` negation, backslash escapes and
// POSIX classes such as `[:alpha:]`.

extension Wildmatch {
    /// Matches `tCh` against the bracket expression opening at `open`.
    /// Returns a final result (no match or abort) or nil with the index of the closing `]`.
    func bracket(_ open: Int, _ tCh: UInt8) -> (WildmatchResult?, Int) {
        var pi = open + 1
        var pCh = p(pi)
        let negated = pCh == Ascii.exclamation || pCh == Ascii.caret
        if negated {
            pi += 1
            pCh = p(pi)
        }
        var previous: UInt8 = 0
        var matched = false
        repeat {
            if pCh == 0 { return (.abortAll, pi) }
            if pCh == Ascii.backslash {
                pi += 1
                pCh = p(pi)
                if pCh == 0 { return (.abortAll, pi) }
                if tCh == pCh { matched = true }
            } else if pCh == Ascii.dash && previous != 0 && p(pi + 1) != 0 && p(pi + 1) != Ascii.closeBracket {
                pi += 1
                pCh = p(pi)
                if pCh == Ascii.backslash {
                    pi += 1
                    pCh = p(pi)
                    if pCh == 0 { return (.abortAll, pi) }
                }
                if tCh <= pCh && tCh >= previous { matched = true }
                pCh = 0
            } else if pCh == Ascii.openBracket && p(pi + 1) == Ascii.colon {
                switch characterClass(at: pi, tCh) {
                case .abort: return (.abortAll, pi)
                case .notAClass:
                    if tCh == Ascii.openBracket { matched = true }
                case .classEnd(let end, let isMember):
                    pi = end
                    if isMember { matched = true }
                    pCh = 0
                }
            } else if tCh == pCh {
                matched = true
            }
            previous = pCh
            pi += 1
            pCh = p(pi)
        } while pCh != Ascii.closeBracket
        if matched == negated || (pathname && tCh == Ascii.slash) { return (.noMatch, pi) }
        return (nil, pi)
    }

    private enum ClassScan {
        case abort
        /// `[:` without a closing `:]`: the `[` is an ordinary member.
        case notAClass
        case classEnd(Int, isMember: Bool)
    }

    private func characterClass(at open: Int, _ tCh: UInt8) -> ClassScan {
        let start = open + 2
        var end = start
        while p(end) != 0 && p(end) != Ascii.closeBracket { end += 1 }
        if p(end) == 0 { return .abort }
        if end - start - 1 < 0 || p(end - 1) != Ascii.colon { return .notAClass }
        let name = String(decoding: (start..<(end - 1)).map { p($0) }, as: UTF8.self)
        guard let isMember = Ascii.isMember(tCh, ofClass: name) else { return .abort }
        return .classEnd(end, isMember: isMember)
    }
}
