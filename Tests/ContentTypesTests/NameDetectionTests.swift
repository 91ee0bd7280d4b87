import Testing
import ContentTypes

/// Detector shared by the tests of one suite instance (each test gets its own instance,
/// so no detector is used from two threads).
func makeDetector() throws -> ContentTypeDetector {
    try ContentTypeDetector()
}

let textTail = ["public.text", "public.data", "public.item", "public.content"]
let plainTextTree = ["public.plain-text"] + textTail
let sourceTail = ["public.source-code"] + textTail
let imageTail = ["public.image", "public.data", "public.item", "public.content"]
let zipTail = ["public.zip-archive", "com.pkware.zip-archive", "public.data", "public.item", "public.archive"]

@Suite("Content type by file name (system shared-mime-info)")
struct NameDetectionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var identifier: String
        var tree: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "notes.txt", identifier: "public.plain-text", tree: plainTextTree),
        Case(name: "index.html", identifier: "public.html", tree: ["public.html"] + textTail),
        Case(name: "page.htm", identifier: "public.html", tree: ["public.html"] + textTail),
        Case(name: "data.json", identifier: "public.json", tree: ["public.json"] + textTail),
        Case(name: "feed.xml", identifier: "public.xml", tree: ["public.xml"] + textTail),
        Case(name: "config.yaml", identifier: "public.yaml", tree: ["public.yaml"] + textTail),
        Case(name: "README.md", identifier: "net.daringfireball.markdown", tree: ["net.daringfireball.markdown"] + plainTextTree),
        Case(name: "table.csv", identifier: "public.comma-separated-values-text",
             tree: ["public.comma-separated-values-text", "public.delimited-values-text"] + textTail),
        Case(name: "letter.rtf", identifier: "public.rtf", tree: ["public.rtf"] + textTail),
        Case(name: "main.c", identifier: "public.c-source", tree: ["public.c-source"] + sourceTail),
        Case(name: "util.h", identifier: "public.c-header", tree: ["public.c-header"] + sourceTail),
        Case(name: "app.cpp", identifier: "public.c-plus-plus-source", tree: ["public.c-plus-plus-source"] + sourceTail),
        Case(name: "build.sh", identifier: "public.shell-script",
             tree: ["public.shell-script", "public.script"] + sourceTail),
        Case(name: "tool.py", identifier: "public.python-script",
             tree: ["public.python-script", "public.shell-script", "public.script"] + sourceTail),
        Case(name: "app.js", identifier: "com.netscape.javascript-source",
             tree: ["com.netscape.javascript-source"] + sourceTail + ["public.executable"]),
        Case(name: "Makefile", identifier: "public.make-source", tree: ["public.make-source", "public.script"] + sourceTail),
        Case(name: "photo.png", identifier: "public.png", tree: ["public.png"] + imageTail),
        Case(name: "photo.jpg", identifier: "public.jpeg", tree: ["public.jpeg"] + imageTail),
        Case(name: "photo.jpeg", identifier: "public.jpeg", tree: ["public.jpeg"] + imageTail),
        Case(name: "anim.gif", identifier: "com.compuserve.gif", tree: ["com.compuserve.gif"] + imageTail),
        Case(name: "logo.svg", identifier: "public.svg-image", tree: ["public.svg-image"] + imageTail),
        Case(name: "paper.pdf", identifier: "com.adobe.pdf",
             tree: ["com.adobe.pdf", "public.data", "public.item", "public.composite-content", "public.content"]),
        Case(name: "film.mp4", identifier: "public.mpeg-4",
             tree: ["public.mpeg-4", "public.movie", "public.audiovisual-content", "public.data", "public.item", "public.content"]),
        Case(name: "song.mp3", identifier: "public.mp3",
             tree: ["public.mp3", "public.audio", "public.audiovisual-content", "public.data", "public.item", "public.content"]),
        Case(name: "bundle.zip", identifier: "public.zip-archive", tree: zipTail),
        Case(name: "src.tar.gz", identifier: "org.gnu.gnu-zip-tar-archive",
             tree: ["org.gnu.gnu-zip-tar-archive", "org.gnu.gnu-zip-archive", "public.data", "public.item", "public.archive"]),
        Case(name: "log.gz", identifier: "org.gnu.gnu-zip-archive",
             tree: ["org.gnu.gnu-zip-archive", "public.data", "public.item", "public.archive"]),
        Case(name: "report.docx", identifier: "org.openxmlformats.wordprocessingml.document",
             tree: ["org.openxmlformats.wordprocessingml.document", "org.openxmlformats.openxml"] + zipTail
                + ["public.composite-content", "public.content"]),
        Case(name: "report.odt", identifier: "org.oasis-open.opendocument.text",
             tree: ["org.oasis-open.opendocument.text"] + zipTail + ["public.composite-content", "public.content"]),
        Case(name: "script.lua", identifier: "org.freedesktop.mime.text-x-lua",
             tree: ["org.freedesktop.mime.text-x-lua"] + plainTextTree + ["public.executable"]),
        Case(name: "style.css", identifier: "org.freedesktop.mime.text-css",
             tree: ["org.freedesktop.mime.text-css"] + plainTextTree),
    ]

    @Test(arguments: cases)
    func detectsByName(_ c: Case) throws {
        let detector = try makeDetector()
        #expect(!detector.needsContent(fileName: c.name))
        let type = detector.contentType(fileName: c.name, leadingBytes: nil)
        #expect(type.identifier == c.identifier)
        #expect(type.tree == c.tree)
        #expect(type.isText == c.tree.contains("public.text"))
    }

    @Test func emptyFileKeepsTheTypeItsNameGives() throws {
        let type = try makeDetector().contentType(fileName: "empty.txt", leadingBytes: [])
        #expect(type.identifier == "public.plain-text")
    }

    @Test func foldersAndLinksHaveFixedTrees() {
        #expect(ContentTypeDetector.folder.tree == ["public.folder", "public.directory", "public.item"])
        #expect(ContentTypeDetector.symlink.tree == ["public.symlink", "public.item"])
        #expect(!ContentTypeDetector.folder.isText)
    }

    @Test func aliasesResolveToTheCanonicalType() throws {
        let detector = try makeDetector()
        #expect(detector.contentType(mimeType: "text/x-c").identifier == "public.c-source")
        #expect(detector.contentType(mimeType: "text/xml").identifier == "public.xml")
        #expect(detector.contentType(mimeType: "TEXT/PLAIN").identifier == "public.plain-text")
    }

    @Test(arguments: [("image/svg+xml", "org.freedesktop.mime.image-svg-x2b-xml"),
                      ("text/x-csrc", "org.freedesktop.mime.text-x-csrc"),
                      ("application/vnd.ms-excel.sheet.macroEnabled.12", "org.freedesktop.mime.application-vnd.ms-excel.sheet.macroenabled.12")])
    func dynamicIdentifierScheme(_ mime: String, _ expected: String) {
        #expect(ContentType.dynamicIdentifier(forMIMEType: mime) == expected)
    }
}
