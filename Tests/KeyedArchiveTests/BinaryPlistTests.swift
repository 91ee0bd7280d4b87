import KeyedArchive
import Testing

/// The binary plist reader and writer on every object type and width.
@Suite struct BinaryPlistTests {
    static let scalars: [PlistValue] = [
        .integer(0), .integer(255), .integer(256), .integer(65_535), .integer(65_536), .integer(4_294_967_295),
        .integer(4_294_967_296), .integer(36_079_294_411_123), .integer(Int64.max), .integer(-1), .integer(Int64.min),
        .unsignedInteger(UInt64(Int64.max) + 1), .unsignedInteger(UInt64.max),
        .real(0.0), .real(-0.0), .real(1.5), .real(.infinity), .real(-1e300), .bool(true), .bool(false),
        .date(0), .date(-13_197_600_000), .date(509_523_358.684097), .data([]), .data(Array(0...255)),
        .string(""), .string("ascii"), .string(String(repeating: "long ", count: 10)), .string("ß日本🎉"),
        .uid(0), .uid(255), .uid(256), .uid(70_000), .uid(5_000_000_000),
    ]

    @Test(arguments: scalars)
    func scalarRoundTripsInBothFormats(value: PlistValue) throws {
        let wrapped = PlistValue.array([value, .dictionary([PlistEntry("k", value)])])
        #expect(try PropertyList.decode(PropertyList.encode(wrapped, format: .binary)) == wrapped)
        if case .uid = value { return }
        if case .date = value { return } // XML dates keep whole seconds, as CoreFoundation's do
        if case .real(let number) = value, !number.isFinite { return }
        #expect(try PropertyList.decode(PropertyList.encode(wrapped, format: .xml)) == wrapped)
    }

    @Test func integerWidthsAreTheSmallestAppleUses() throws {
        let cases: [(Int64, [UInt8])] = [(5, [0x10, 5]), (300, [0x11, 0x01, 0x2C]), (70_000, [0x12, 0, 1, 0x11, 0x70]),
                                          (-1, [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])]
        for (number, expected) in cases {
            let bytes = try PropertyList.encode(.integer(number), format: .binary)
            #expect(Array(bytes[8..<(8 + expected.count)]) == expected, "\(number)")
        }
        let big = try PropertyList.encode(.unsignedInteger(UInt64.max), format: .binary)
        #expect(big[8] == 0x14)
    }

    @Test func wideReferenceAndOffsetSizesAreWrittenAndRead() throws {
        // 70,000 distinct strings need 4-byte references and offsets beyond 65,535.
        let value = PlistValue.array((0..<70_000).map { .string("s\($0)") })
        let bytes = try PropertyList.encode(value, format: .binary)
        #expect(bytes[bytes.count - 32 + 7] == 4, "reference size")
        #expect(bytes[bytes.count - 32 + 6] == 4, "offset size")
        #expect(try PropertyList.decode(bytes) == value)
    }

    @Test func equalScalarsAreStoredOnceButNumbersNeverMergeAcrossTypes() throws {
        let value = PlistValue.array([.string("x"), .string("x"), .integer(1), .real(1), .bool(true), .integer(0), .real(0), .bool(false)])
        let bytes = try PropertyList.encode(value, format: .binary)
        let objectCount = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        #expect(objectCount == 8) // the array, one "x", and six numbers of three types
        #expect(try PropertyList.decode(bytes) == value)
    }

    @Test func dictionariesKeepNonStringKeysAndSetsStaySets() throws {
        let value = PlistValue.dictionary([PlistEntry(key: .integer(7), value: .string("seven")),
                                           PlistEntry(key: .string("set"), value: .set([.integer(1), .string("a")]))])
        #expect(try PropertyList.decode(PropertyList.encode(value, format: .binary)) == value)
        #expect(throws: ArchiveError.self) { try PropertyList.encode(value, format: .xml) }
    }

    @Test func utf16StringsAreRead() throws {
        // Apple's writer: 0x6N marker, big-endian UTF-16 code units (here "é" and a surrogate pair).
        var bytes = Array("bplist00".utf8) + [0x63, 0x00, 0xE9, 0xD8, 0x3C, 0xDF, 0x89]
        let table = bytes.count
        bytes += [8] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(try PropertyList.decode(bytes) == .string("é🎉"))
    }
}
