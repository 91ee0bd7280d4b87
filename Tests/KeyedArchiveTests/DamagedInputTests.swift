import KeyedArchive
import Testing

/// Damaged input fails with an error that says where, and never allocates what it claims.
@Suite struct DamagedInputTests {
    static func binary(objects: [[UInt8]], top: Int = 0, refSize: UInt8 = 1, countOverride: UInt64? = nil) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets = [Int]()
        for object in objects { offsets.append(bytes.count); bytes += object }
        let table = bytes.count
        bytes += offsets.map { UInt8($0) }
        let count = countOverride ?? UInt64(objects.count)
        bytes += [0, 0, 0, 0, 0, 0, 1, refSize]
        for value in [count, UInt64(top), UInt64(table)] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return bytes
    }

    static func message(_ bytes: [UInt8]) -> String {
        do {
            _ = try PropertyList.decode(bytes)
            return "decoded"
        } catch {
            return error.message
        }
    }

    @Test func aCountLargerThanTheFileIsRefusedBeforeAllocating() {
        #expect(Self.message(Self.binary(objects: [[0x08]], countOverride: 1 << 60)).contains("does not fit"))
    }

    @Test func anArrayClaimingMoreElementsThanBytesNamesItsOffset() {
        let text = Self.message(Self.binary(objects: [[0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]))
        #expect(text.contains("offset 8"), "\(text)")
    }

    @Test func aReferenceCycleIsAnErrorNotAHang() {
        #expect(Self.message(Self.binary(objects: [[0xA1, 0x00]])).contains("cycle"))
    }

    @Test func aReferenceOutOfRangeNamesTheObject() {
        #expect(Self.message(Self.binary(objects: [[0xA1, 0x05]])).contains("refers to object 5"))
    }

    @Test func deepNestingHitsTheDepthLimit() {
        // 600 arrays each holding the next, with 2-byte references and offsets.
        let depth = 600
        var bytes = Array("bplist00".utf8)
        var offsets = [Int]()
        for index in 0..<depth {
            offsets.append(bytes.count)
            bytes += index == depth - 1 ? [0x08] : [0xA1, UInt8((index + 1) >> 8), UInt8((index + 1) & 0xFF)]
        }
        let table = bytes.count
        for offset in offsets { bytes += [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        bytes += [0, 0, 0, 0, 0, 0, 2, 2]
        for value in [UInt64(depth), 0, UInt64(table)] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        #expect(Self.message(bytes).contains("deeper than"))
    }

    @Test(arguments: [
        ("<plist><array><string>a</array></plist>", "unexpected element"),
        ("<plist><integer>x1</integer></plist>", "invalid value"),
        ("<plist><dict><string>a</string></dict></plist>", "expected <key>"),
        ("<plist><string>a &bogus; b</string></plist>", "unknown XML entity"),
        ("<plist><data>!!!</data></plist>", "invalid value"),
    ])
    func damagedXMLSaysWhatIsWrong(text: String, fragment: String) {
        let message = Self.message(Array(text.utf8))
        #expect(message.contains(fragment), "\(message)")
    }

    @Test func xmlEntitiesAndCDATAAreDecoded() throws {
        let text = "<?xml version=\"1.0\"?><!-- c --><plist version=\"1.0\"><string>a&lt;&amp;&#x41;&#66;<![CDATA[<x>]]></string></plist>"
        #expect(try PropertyList.decode(Array(text.utf8)) == .string("a<&AB<x>"))
    }
}
