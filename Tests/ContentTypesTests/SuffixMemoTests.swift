import Testing
@testable import ContentTypes

/// `typeByName` remembers the types of names that only `*.ext` globs match, by the end of
/// the name. These names share such ends with names that a literal, another glob or case
/// decides differently: asked in any order through one detector, each must get what a
/// detector that never saw another name gives it.
@Suite("Types by name, remembered by suffix")
struct SuffixMemoTests {
    static let globs = """
        50:text/plain:*.txt
        50:text/x-special:special.txt
        60:text/x-draft:draft*
        50:text/x-upper:*.Q:cs
        50:text/x-lower:*.q
        50:application/x-tgz:*.tar.gz
        50:application/x-gzip-thing:*.gz
        50:application/x-shared:*.so.[0-9]*
        """

    static let names = [
        "a.txt", "special.txt", "SPECIAL.TXT", "draft.txt", "Draft.TXT", "b.TXT", "x.Q", "x.q", "y.Q", "a.tar.gz",
        "a.TAR.gz", "a.gz", "lib.so.1", "lib.so", "no-extension", "résumé.txt", "RÉSUMÉ.TAR.GZ", ".txt", "trailing.",
    ]

    func detector() throws -> ContentTypeDetector {
        try ContentTypeDetector(database: MimeDatabase(files: [(globs2: Self.globs, subclasses: "", aliases: "")]))
    }

    /// What a detector answers for `name` when it has seen no other name.
    func firstAnswer(_ name: String) throws -> (String?, Bool) {
        let (type, needsContent) = try detector().typeByName(Array(name.utf8))
        return (type.mimeType, needsContent)
    }

    @Test(arguments: [false, true])
    func everyOrderGivesTheFirstAnswer(reversed: Bool) throws {
        let shared = try detector()
        let order = reversed ? Self.names.reversed() : Self.names
        for _ in 0..<2 {
            for name in order {
                let (type, needsContent) = shared.typeByName(Array(name.utf8))
                let expected = try firstAnswer(name)
                #expect(type.mimeType == expected.0, "\(name)")
                #expect(needsContent == expected.1, "\(name)")
            }
        }
    }

    @Test func theRulesAreTheOnesMeant() throws {
        #expect(try firstAnswer("special.txt").0 == "text/x-special")
        #expect(try firstAnswer("draft.txt").0 == "text/x-draft")
        #expect(try firstAnswer("x.Q").0 == "text/x-upper")
        #expect(try firstAnswer("x.q").0 == "text/x-lower")
        #expect(try firstAnswer("lib.so.1").0 == "application/x-shared")
        #expect(try firstAnswer("a.TAR.gz").0 == "application/x-tgz")
    }

    @Test func answersStayRightPastTheMemoLimit() throws {
        let shared = try detector()
        for index in 0..<(ContentTypeDetector.suffixMemoLimit + 10) {
            _ = shared.typeByName(Array("f.x\(index)".utf8))
            #expect(shared.rememberedSuffixes <= ContentTypeDetector.suffixMemoLimit)
        }
        for name in Self.names {
            #expect(shared.typeByName(Array(name.utf8)).type.mimeType == (try firstAnswer(name).0), "\(name)")
        }
    }
}
