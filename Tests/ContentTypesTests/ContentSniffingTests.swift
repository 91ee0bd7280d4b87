import Testing
import ContentTypes

@Suite("Content type from the first bytes (magic rules, text check, libmagic)")
struct ContentSniffingTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
                               0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
    static let pdf = Array("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)
    static let shell = Array("#!/bin/sh\nset -e\necho hello\n".utf8)
    static let python = Array("#!/usr/bin/env python3\nimport sys\nprint(sys.argv)\n".utf8)
    static let text = Array("Dear diary,\nit rained all day and I read a book.\n".utf8)
    static let binary: [UInt8] = (0..<512).map { UInt8(($0 * 7919 + 13) % 256) }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var name: String
        var bytes: [UInt8]
        var identifier: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "PNG header", name: "IMG_0001", bytes: png, identifier: "public.png"),
        Case(label: "PDF header", name: "scan", bytes: pdf, identifier: "com.adobe.pdf"),
        Case(label: "shell shebang", name: "deploy", bytes: shell, identifier: "public.shell-script"),
        Case(label: "python shebang", name: "tool", bytes: python, identifier: "public.python-script"),
        Case(label: "plain text", name: "diary", bytes: text, identifier: "public.plain-text"),
        Case(label: "unknown binary", name: "blob", bytes: binary, identifier: "public.data"),
        Case(label: "empty, no extension", name: "empty", bytes: [], identifier: "public.data"),
        Case(label: "unknown extension, PNG bytes", name: "photo.xyzzy", bytes: png, identifier: "public.png"),
        Case(label: "name wins over content", name: "notes.txt", bytes: png, identifier: "public.plain-text"),
        // Not text by the UTF-8 check: libmagic recognizes it.
        Case(label: "Latin-1 text", name: "lettre", bytes: Array("Cher journal, il a plu toute la journ".utf8) + [0xE9, 0x65, 0x2E, 0x0A],
             identifier: "public.plain-text"),
        Case(label: "XML declaration", name: "feed", bytes: Array("<?xml version=\"1.0\"?>\n<feed/>\n".utf8), identifier: "public.xml"),
    ]

    @Test(arguments: cases)
    func sniffsWhenTheNameSaysNothing(_ c: Case) throws {
        let detector = try makeDetector()
        let type = detector.contentType(fileName: c.name, leadingBytes: c.bytes)
        #expect(type.identifier == c.identifier, "\(c.label): got \(type.identifier) (\(type.mimeType ?? "-"))")
    }

    @Test(arguments: ["IMG_0001", "README", "photo.xyzzy", "noext"])
    func extensionlessNamesNeedContent(_ name: String) throws {
        let detector = try makeDetector()
        // README is a literal glob in shared-mime-info (text/x-readme): decided by name.
        #expect(detector.needsContent(fileName: name) == (name != "README"))
    }

    /// `typeByName` is the two name-only calls in one lookup: it must agree with both.
    @Test(arguments: ["IMG_0001", "README", "photo.xyzzy", "notes.txt", "data.json", "x.doc", "a.tar.gz", "Makefile", ""])
    func typeByNameAgreesWithTheTwoCalls(_ name: String) throws {
        let detector = try makeDetector()
        let (type, needsContent) = detector.typeByName(Array(name.utf8))
        #expect(type == detector.contentType(fileName: name, leadingBytes: nil), "\(name)")
        #expect(needsContent == detector.needsContent(fileName: name), "\(name)")
    }

    @Test func withoutContentAnUnknownNameIsData() throws {
        let type = try makeDetector().contentType(fileName: "IMG_0001", leadingBytes: nil)
        #expect(type == ContentType.data)
    }

    @Test func sniffedTextConformsToText() throws {
        let type = try makeDetector().contentType(fileName: "diary", leadingBytes: Self.text)
        #expect(type.isText)
        #expect(type.tree == plainTextTree)
    }
}
