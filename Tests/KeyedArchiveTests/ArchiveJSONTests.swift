import KeyedArchive
import Testing

/// The JSON convention in the other direction (`ubq archive encode`), and the JSON parser.
@Suite struct ArchiveJSONTests {
    static let document = """
    {"top": {"root": {"a": [1, 1.0, true, null, {"$data": "AAE="}, {"$date": 1.5, "$iso": "x"}],
      "$$dollar": {"$set": ["x"]}, "o": {"$orderedSet": [2]}, "c": {"$countedSet": [["e", 3]]},
      "p": {"$dictPairs": [[7, "seven"]]}, "n": {"$nsnull": true}, "u": {"$uuid": "71DC068E-3420-45FF-919E-3A267D55EC22"},
      "url": {"$url": {"base": null, "relative": "https://example.com"}},
      "obj": {"$class": "Foo", "$classes": ["Foo", "NSObject"], "$fields": {"x": 1, "list": ["a"]}},
      "r": {"$real": "nan"}}}}
    """

    @Test(arguments: [PlistFormat.binary, .xml])
    func jsonBuildsAnArchiveThatRendersBackToIt(format: PlistFormat) throws {
        let bytes = try ArchiveJSON.archive(fromJSON: Self.document, format: format)
        #expect(PropertyList.formatName(of: bytes) == format.rawValue)
        let rendered = ArchiveJSON.document(archiveBytes: bytes, fileName: "t")
        let expected = try JSONParser.parse(Self.document)
        let difference = JSONMatching.difference(expected["top"] ?? .null, rendered["top"] ?? .null)
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test func cyclesComeBackFromSharedAndRef() throws {
        let text = """
        {"top": {"root": [{"$ref": 1}]}, "shared": [{"uid": 1, "class": "NSMutableArray", "paths": ["/top/root", "/top/root/0"]}]}
        """
        let graph = try KeyedUnarchiver.decode(try ArchiveJSON.archive(fromJSON: text))
        guard case .object(let root)? = graph.topValue("root"), case .array(let items, true) = graph[root] else {
            Issue.record("root is not a mutable array")
            return
        }
        #expect(items == [.object(root)])
    }

    @Test(arguments: ["{", "[1,]", "{\"a\" 1}", "\"\\x\"", "01x", "{\"top\": {\"root\": {\"$ref\": 9}}}", "{\"top\": {\"root\": {\"$bogus\": 1}}}"])
    func badJSONIsAnError(text: String) {
        #expect(throws: ArchiveError.self) { try ArchiveJSON.archive(fromJSON: text) }
    }

    @Test(arguments: ["bpylist2-simple_archive.plist", "goios-missing_top.xml"])
    func aGivenDigestIsTheSecondFieldAsInTheExpectedFiles(name: String) throws {
        let bytes = try FixturePaths.archiveBytes(name)
        guard case .object(let members) = ArchiveJSON.document(archiveBytes: bytes, fileName: name, sha256: "ab12") else {
            Issue.record("the document is not an object")
            return
        }
        #expect(members.prefix(3).map(\.0) == ["file", "sha256", "size"])
        #expect(members[1].1 == .string("ab12"))
        #expect(ArchiveJSON.document(archiveBytes: bytes, fileName: name)["sha256"] == nil)
    }

    @Test func parserHandlesEscapesAndBigIntegers() throws {
        let value = try JSONParser.parse(#"["\u00e9\ud83c\udf89\n", 18446744073709551615, -9223372036854775808, 1e-5]"#)
        #expect(value == .array([.string("é🎉\n"), .unsignedInteger(.max), .integer(.min), .real(1e-5)]))
    }

    @Test func realsAlwaysHaveAPointOrExponent() {
        #expect(JSONValue.real(1).serialized() == "1.0")
        #expect(JSONValue.array([.real(1e300), .integer(1)]).serialized(indent: 0) == "[1e+300,1]")
    }

    @Test func datesRenderTheISOFormOfTheConvention() {
        #expect(ReferenceDate(secondsSince2001: 509_523_358.684097).iso8601Microseconds == "2017-02-23T06:15:58.684097Z")
        #expect(ReferenceDate(secondsSince2001: -13_197_600_000).iso8601Microseconds == "1582-10-15T00:00:00.000000Z")
        #expect(ReferenceDate(iso8601: "2001-01-01T00:00:01Z")?.secondsSince2001 == 1)
        #expect(ReferenceDate(secondsSince2001: 1e300).iso8601Microseconds == "invalid")
        #expect(ReferenceDate(secondsSince2001: .nan).iso8601Seconds == "invalid")
    }
}

/// The outline for people: each object once, later references as arrows.
@Suite struct ArchiveOutlineTests {
    @Test func outlineShowsSharedObjectsOnceAndCyclesAsArrows() throws {
        let text = ArchiveOutline.render(archiveBytes: try FixturePaths.archiveBytes("bpylist2-circular_archive.plist"))
        #expect(text.contains("root: crap.Foo #1 (2 fields)"), "\(text)")
        #expect(text.contains("recursive: → #1 (crap.Foo)"), "\(text)")
        #expect(text.contains("title: \"hello\""), "\(text)")
    }

    @Test func outlineOfADamagedArchiveIsTheError() throws {
        let text = ArchiveOutline.render(archiveBytes: try FixturePaths.archiveBytes("k129-invalidReference.bin.plist"))
        #expect(text == "error: ArchiveError: UID 5 out of range\n")
    }

    @Test(arguments: FixturePaths.archiveNames)
    func everyFixtureHasAnOutline(name: String) throws {
        #expect(!ArchiveOutline.render(archiveBytes: try FixturePaths.archiveBytes(name)).isEmpty)
    }
}
