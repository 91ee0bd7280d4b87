import Testing
import ContentTypes

@Suite("Case rules and raw name bytes")
struct CaseAndEncodingTests {
    @Test(arguments: [
        ("README.TXT", "public.plain-text"),
        ("PHOTO.PNG", "public.png"),
        ("Report.PDF", "com.adobe.pdf"),
        ("main.c", "public.c-source"),
        ("main.C", "public.c-plus-plus-source"),  // *.C is case-sensitive in shared-mime-info
        ("MAKEFILE", "public.make-source"),
        ("makefile", "public.make-source"),
    ])
    func globsIgnoreCaseUnlessMarkedCaseSensitive(_ name: String, _ identifier: String) throws {
        #expect(try makeDetector().contentType(fileName: name, leadingBytes: nil).identifier == identifier)
    }

    @Test func caseSensitiveLiteralOnlyMatchesExactly() throws {
        let detector = try makeDetector()
        // "core" is case-sensitive (application/x-core); "Core" matches nothing.
        #expect(detector.contentType(fileName: "core", leadingBytes: nil).mimeType == "application/x-core")
        #expect(detector.contentType(fileName: "Core", leadingBytes: nil).identifier == "public.data")
    }

    @Test(arguments: [
        ([0xFF, 0xFE, 0x2E, 0x74, 0x78, 0x74] as [UInt8], "public.plain-text"),           // \xFF\xFE.txt
        ([0x6E, 0xC3, 0x2E, 0x50, 0x4E, 0x47] as [UInt8], "public.png"),                  // n\xC3.PNG
        ([0xC3, 0xA9, 0x74, 0xC3, 0xA9, 0x2E, 0x4A, 0x53, 0x4F, 0x4E] as [UInt8], "public.json"),  // été.JSON
        ([0x80, 0x81, 0x0A, 0x2E, 0x6D, 0x64] as [UInt8], "net.daringfireball.markdown"),  // \x80\x81\n.md
    ])
    func invalidUTF8NamesAreMatchedByteWise(_ name: [UInt8], _ identifier: String) throws {
        let detector = try makeDetector()
        #expect(detector.contentType(fileName: name, leadingBytes: nil).identifier == identifier)
        #expect(!detector.needsContent(fileName: name))
    }

    @Test func invalidUTF8NameWithoutExtensionIsSniffed() throws {
        let detector = try makeDetector()
        let name: [UInt8] = [0xFF, 0x00 + 0x41, 0xFE]
        #expect(detector.needsContent(fileName: name))
        #expect(detector.contentType(fileName: name, leadingBytes: ContentSniffingTests.png).identifier == "public.png")
    }

    @Test func unicodeNamesFoldCase() throws {
        let detector = try makeDetector()
        #expect(detector.contentType(fileName: "ÉTÉ.HTML", leadingBytes: nil).identifier == "public.html")
    }
}
