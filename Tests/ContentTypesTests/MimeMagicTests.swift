import Testing
import TestSupport

@testable import ContentTypes

/// shared-mime-info's `magic` format and matching rules, on hand-built files, then on the
/// system database.
@Suite("shared-mime-info magic rules")
struct MimeMagicTests {
    /// One rule line: `[indent]>offset=<length><value>[&mask][~word][+range]\n`.
    static func line(_ indent: Int? = nil, offset: Int, _ value: [UInt8], mask: [UInt8]? = nil, word: Int? = nil, range: Int? = nil) -> [UInt8] {
        var bytes = Array("\(indent.map(String.init) ?? "")>\(offset)=".utf8) + [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        if let mask { bytes += Array("&".utf8) + mask }
        if let word { bytes += Array("~\(word)".utf8) }
        if let range { bytes += Array("+\(range)".utf8) }
        return bytes + [0x0A]
    }

    static func file(_ sections: [(String, [[UInt8]])]) -> [UInt8] {
        MagicParser.header + sections.flatMap { header, lines in Array("[\(header)]\n".utf8) + lines.flatMap { $0 } }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aRuleMatchesItsValueAnywhereInItsRange() {
        let magic = MimeMagic(files: [Self.file([("50:text/x-greeting", [Self.line(offset: 2, Self.bytes("hello"), range: 4)])])])
        #expect(magic.mimeType(of: Self.bytes("..hello")) == "text/x-greeting")
        #expect(magic.mimeType(of: Self.bytes(".....hello")) == "text/x-greeting", "offset 5 = 2 + range 4 - 1")
        #expect(magic.mimeType(of: Self.bytes("......hello")) == nil, "offset 6 is past the range")
        #expect(magic.mimeType(of: Self.bytes("..hell")) == nil, "the sample ends inside the value")
        #expect(magic.mimeType(of: Self.bytes("..hhehello")) == "text/x-greeting", "first bytes that start no match are skipped")
    }

    /// The scan skips to each occurrence of a value's first byte; it must find exactly
    /// what comparing at every start of the range finds, masks included.
    @Test(arguments: 0..<30)
    func theScanFindsWhatAComparisonAtEveryStartFinds(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet: [UInt8] = [0x00, 0x41, 0x42, 0x43, 0xFF]
        func some(_ count: Int) -> [UInt8] { (0..<count).map { _ in alphabet[random.below(alphabet.count)] } }
        for _ in 0..<50 {
            let value = some(1 + random.below(3))
            let mask = random.below(2) == 0 ? nil : some(value.count)
            let (offset, range) = (random.below(6), 1 + random.below(8))
            let sample = some(random.below(16))
            let rule = MagicRule(offset: offset, range: range, value: value, mask: mask)
            let expected = (offset..<(offset + range)).contains { start in
                start + value.count <= sample.count && value.indices.allSatisfy {
                    sample[start + $0] & (mask?[$0] ?? 0xFF) == value[$0] & (mask?[$0] ?? 0xFF)
                }
            }
            #expect(rule.matches(sample) == expected, "value \(value) mask \(String(describing: mask)) at \(offset)+\(range) in \(sample)")
        }
    }

    @Test func aRuleWithSubRulesNeedsOneOfThemToo() {
        let magic = MimeMagic(files: [Self.file([("50:application/x-box", [
            Self.line(offset: 0, Self.bytes("BOX")),
            Self.line(1, offset: 4, Self.bytes("v1")),
            Self.line(1, offset: 4, Self.bytes("v2")),
            Self.line(2, offset: 7, Self.bytes("!")),
        ])])])
        #expect(magic.mimeType(of: Self.bytes("BOX v1")) == "application/x-box")
        #expect(magic.mimeType(of: Self.bytes("BOX v2 !")) == "application/x-box")
        #expect(magic.mimeType(of: Self.bytes("BOX v2 ?")) == nil, "v2 needs its own sub-rule")
        #expect(magic.mimeType(of: Self.bytes("BOX v3")) == nil)
    }

    @Test func aMaskAndAWordSizeApplyInHostOrder() {
        // A 2-byte word 0x1234 under mask 0xFF00, stored big-endian: matches 0x12?? as a
        // little-endian word, i.e. bytes ?? 12.
        let magic = MimeMagic(files: [Self.file([("50:application/x-word", [Self.line(offset: 0, [0x12, 0x34], mask: [0xFF, 0x00], word: 2)])])])
        #expect(magic.mimeType(of: [0x99, 0x12]) == "application/x-word")
        #expect(magic.mimeType(of: [0x12, 0x99]) == nil)
    }

    @Test func theHighestPriorityMatchWinsAndAMoreImportantFolderRedefinesAType() {
        let system = Self.file([
            ("40:text/x-low", [Self.line(offset: 0, Self.bytes("AB"))]),
            ("80:text/x-high", [Self.line(offset: 0, Self.bytes("A"))]),
            ("60:text/x-mine", [Self.line(offset: 0, Self.bytes("Z"))]),
        ])
        let user = Self.file([("90:text/x-mine", [Self.line(offset: 0, Self.bytes("Q"))])])
        let magic = MimeMagic(files: [user, system])
        #expect(magic.mimeType(of: Self.bytes("AB")) == "text/x-high")
        #expect(magic.mimeType(of: Self.bytes("Q")) == "text/x-mine")
        #expect(magic.mimeType(of: Self.bytes("Z")) == nil, "the user's folder replaced the system's rules for text/x-mine")
    }

    @Test func aMalformedLineEndsTheFileButKeepsWhatCameBefore() {
        var file = Self.file([("50:text/x-first", [Self.line(offset: 0, Self.bytes("one"))])])
        file += Array("[50:text/x-second]\n>0=".utf8) + [0x00, 0x09] + Self.bytes("cut")  // value shorter than its length
        let magic = MimeMagic(files: [file, Array("not a magic file".utf8)])
        #expect(magic.mimeType(of: Self.bytes("one")) == "text/x-first")
        #expect(magic.sections.map(\.mimeType) == ["text/x-first"])
    }

    @Test func theSystemDatabaseKnowsCommonFormats() throws {
        let magic = try MimeDatabase().magic
        #expect(magic.sections.count > 100)
        #expect(magic.mimeType(of: ContentSniffingTests.png) == "image/png")
        #expect(magic.mimeType(of: ContentSniffingTests.pdf) == "application/pdf")
        #expect(magic.mimeType(of: ContentSniffingTests.text) == nil)
    }
}

@Suite("text or not, when no magic rule matches")
struct TextHeuristicTests {
    @Test(arguments: [
        ("plain ASCII", Array("Dear diary,\n\tit rained.\r\n".utf8), true),
        ("UTF-8 with escape and backspace", Array("héllo \u{1B}[1mbold\u{8}".utf8), true),
        ("a character cut by the sample's end", Array("café".utf8).dropLast(), true),
        ("Latin-1", [0x63, 0x61, 0x66, 0xE9, 0x20, 0x61], false),
        ("a NUL", Array("ab\u{0}cd".utf8), false),
        ("a C1 control", Array("ab\u{85}cd".utf8), false),
        ("nothing", [], false),
    ] as [(String, [UInt8], Bool)])
    func looksLikeText(_ label: String, _ bytes: [UInt8], _ expected: Bool) {
        #expect(TextHeuristic.looksLikeText(bytes) == expected, "\(label)")
    }
}
