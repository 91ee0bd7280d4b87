// The well-known UTIs Apple declares, with what each conforms to (in Apple's declaration
// order, which fixes the order of kMDItemContentTypeTree) and the MIME types that map to
// it. Identifiers and conformance follow Apple's UniformTypeIdentifiers documentation
// ("The identifier for this type is … This type conforms to …"). MIME names may be aliases:
// they are resolved through the shared-mime-info database when the catalog is built.
//
// This is the only hand-written part: which MIME type a *file* has comes from
// shared-mime-info and libmagic; this table only names the Apple types.

struct AppleType: Sendable {
    var identifier: String
    var conformsTo: [String]
    var mimeTypes: [String] = []
}

enum AppleTypes {
    static let all: [AppleType] = base + text + sourceCode + media + archives + documents

    static let base: [AppleType] = [
        AppleType(identifier: "public.item", conformsTo: []),
        AppleType(identifier: "public.content", conformsTo: []),
        AppleType(identifier: "public.composite-content", conformsTo: ["public.content"]),
        AppleType(identifier: "public.data", conformsTo: ["public.item"],
                  mimeTypes: ["application/octet-stream", "application/x-zerosize"]),
        AppleType(identifier: "public.directory", conformsTo: ["public.item"]),
        AppleType(identifier: "public.folder", conformsTo: ["public.directory"]),
        AppleType(identifier: "public.symlink", conformsTo: ["public.item"]),
        AppleType(identifier: "public.executable", conformsTo: ["public.item"]),
        AppleType(identifier: "public.unix-executable", conformsTo: ["public.data", "public.executable"],
                  mimeTypes: ["application/x-executable"]),
        AppleType(identifier: "public.archive", conformsTo: ["public.data"]),
        AppleType(identifier: "public.contact", conformsTo: []),
        AppleType(identifier: "public.spreadsheet", conformsTo: ["public.content"]),
        AppleType(identifier: "public.presentation", conformsTo: ["public.composite-content"]),
    ]

    static let text: [AppleType] = [
        AppleType(identifier: "public.text", conformsTo: ["public.data", "public.content"]),
        AppleType(identifier: "public.plain-text", conformsTo: ["public.text"], mimeTypes: ["text/plain"]),
        AppleType(identifier: "public.utf8-plain-text", conformsTo: ["public.plain-text"]),
        AppleType(identifier: "public.delimited-values-text", conformsTo: ["public.text"]),
        AppleType(identifier: "public.comma-separated-values-text", conformsTo: ["public.delimited-values-text"],
                  mimeTypes: ["text/csv"]),
        AppleType(identifier: "public.tab-separated-values-text", conformsTo: ["public.delimited-values-text"],
                  mimeTypes: ["text/tab-separated-values"]),
        AppleType(identifier: "public.rtf", conformsTo: ["public.text"], mimeTypes: ["text/rtf", "application/rtf"]),
        AppleType(identifier: "public.html", conformsTo: ["public.text"], mimeTypes: ["text/html"]),
        AppleType(identifier: "public.xml", conformsTo: ["public.text"], mimeTypes: ["application/xml", "text/xml"]),
        AppleType(identifier: "public.json", conformsTo: ["public.text"], mimeTypes: ["application/json"]),
        AppleType(identifier: "public.yaml", conformsTo: ["public.text"], mimeTypes: ["application/x-yaml", "application/yaml"]),
        AppleType(identifier: "net.daringfireball.markdown", conformsTo: ["public.plain-text"], mimeTypes: ["text/markdown"]),
        AppleType(identifier: "public.vcard", conformsTo: ["public.text", "public.contact"], mimeTypes: ["text/vcard"]),
    ]

    static let sourceCode: [AppleType] = [
        AppleType(identifier: "public.source-code", conformsTo: ["public.text"]),
        AppleType(identifier: "public.c-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-csrc"]),
        AppleType(identifier: "public.c-header", conformsTo: ["public.source-code"], mimeTypes: ["text/x-chdr"]),
        AppleType(identifier: "public.c-plus-plus-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-c++src"]),
        AppleType(identifier: "public.c-plus-plus-header", conformsTo: ["public.source-code"], mimeTypes: ["text/x-c++hdr"]),
        AppleType(identifier: "public.objective-c-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-objcsrc"]),
        AppleType(identifier: "com.sun.java-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-java"]),
        AppleType(identifier: "public.script", conformsTo: ["public.source-code"]),
        AppleType(identifier: "public.make-source", conformsTo: ["public.script"], mimeTypes: ["text/x-makefile"]),
        AppleType(identifier: "public.shell-script", conformsTo: ["public.script"], mimeTypes: ["application/x-shellscript"]),
        AppleType(identifier: "public.python-script", conformsTo: ["public.shell-script"],
                  mimeTypes: ["text/x-python", "text/x-python3"]),
        AppleType(identifier: "public.ruby-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-ruby"]),
        AppleType(identifier: "public.perl-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-perl"]),
        AppleType(identifier: "public.php-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-php"]),
        AppleType(identifier: "com.netscape.javascript-source", conformsTo: ["public.source-code", "public.executable"],
                  mimeTypes: ["text/javascript", "application/javascript"]),
    ]

    static let media: [AppleType] = [
        AppleType(identifier: "public.image", conformsTo: ["public.data", "public.content"]),
        AppleType(identifier: "public.png", conformsTo: ["public.image"], mimeTypes: ["image/png"]),
        AppleType(identifier: "public.jpeg", conformsTo: ["public.image"], mimeTypes: ["image/jpeg"]),
        AppleType(identifier: "com.compuserve.gif", conformsTo: ["public.image"], mimeTypes: ["image/gif"]),
        AppleType(identifier: "public.tiff", conformsTo: ["public.image"], mimeTypes: ["image/tiff"]),
        AppleType(identifier: "com.microsoft.bmp", conformsTo: ["public.image"], mimeTypes: ["image/bmp"]),
        AppleType(identifier: "com.microsoft.ico", conformsTo: ["public.image"], mimeTypes: ["image/vnd.microsoft.icon"]),
        AppleType(identifier: "org.webmproject.webp", conformsTo: ["public.image"], mimeTypes: ["image/webp"]),
        AppleType(identifier: "public.svg-image", conformsTo: ["public.image"], mimeTypes: ["image/svg+xml"]),
        AppleType(identifier: "public.audiovisual-content", conformsTo: ["public.data", "public.content"]),
        AppleType(identifier: "public.movie", conformsTo: ["public.audiovisual-content"]),
        AppleType(identifier: "public.video", conformsTo: ["public.movie"]),
        AppleType(identifier: "public.audio", conformsTo: ["public.audiovisual-content"]),
        AppleType(identifier: "public.mpeg-4", conformsTo: ["public.movie"], mimeTypes: ["video/mp4"]),
        AppleType(identifier: "public.mpeg-4-audio", conformsTo: ["public.mpeg-4", "public.audio"], mimeTypes: ["audio/mp4"]),
        AppleType(identifier: "com.apple.quicktime-movie", conformsTo: ["public.movie"], mimeTypes: ["video/quicktime"]),
        AppleType(identifier: "public.avi", conformsTo: ["public.movie"], mimeTypes: ["video/x-msvideo"]),
        AppleType(identifier: "public.mpeg", conformsTo: ["public.movie"], mimeTypes: ["video/mpeg"]),
        AppleType(identifier: "public.mp3", conformsTo: ["public.audio"], mimeTypes: ["audio/mpeg"]),
        AppleType(identifier: "com.microsoft.waveform-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/x-wav", "audio/wav"]),
        AppleType(identifier: "public.aiff-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/x-aiff"]),
        AppleType(identifier: "org.xiph.flac", conformsTo: ["public.audio"], mimeTypes: ["audio/flac"]),
        AppleType(identifier: "public.font", conformsTo: ["public.data", "public.content"]),
        AppleType(identifier: "public.truetype-ttf-font", conformsTo: ["public.font"], mimeTypes: ["font/ttf"]),
        AppleType(identifier: "public.opentype-font", conformsTo: ["public.font"], mimeTypes: ["font/otf"]),
    ]

    static let archives: [AppleType] = [
        AppleType(identifier: "com.pkware.zip-archive", conformsTo: ["public.data", "public.archive"]),
        AppleType(identifier: "public.zip-archive", conformsTo: ["com.pkware.zip-archive"], mimeTypes: ["application/zip"]),
        AppleType(identifier: "org.gnu.gnu-zip-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/gzip"]),
        AppleType(identifier: "org.gnu.gnu-zip-tar-archive", conformsTo: ["org.gnu.gnu-zip-archive"],
                  mimeTypes: ["application/x-compressed-tar"]),
        AppleType(identifier: "public.tar-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/x-tar"]),
        AppleType(identifier: "public.bzip2-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/x-bzip2"]),
    ]

    static let documents: [AppleType] = [
        AppleType(identifier: "com.adobe.pdf", conformsTo: ["public.data", "public.composite-content"], mimeTypes: ["application/pdf"]),
        AppleType(identifier: "org.openxmlformats.openxml", conformsTo: ["public.zip-archive"]),
        AppleType(identifier: "org.openxmlformats.wordprocessingml.document",
                  conformsTo: ["org.openxmlformats.openxml", "public.composite-content"],
                  mimeTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]),
        AppleType(identifier: "org.openxmlformats.spreadsheetml.sheet", conformsTo: ["org.openxmlformats.openxml", "public.spreadsheet"],
                  mimeTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]),
        AppleType(identifier: "org.openxmlformats.presentationml.presentation",
                  conformsTo: ["org.openxmlformats.openxml", "public.presentation"],
                  mimeTypes: ["application/vnd.openxmlformats-officedocument.presentationml.presentation"]),
        AppleType(identifier: "org.oasis-open.opendocument.text", conformsTo: ["public.zip-archive", "public.composite-content"],
                  mimeTypes: ["application/vnd.oasis.opendocument.text"]),
        AppleType(identifier: "org.oasis-open.opendocument.spreadsheet", conformsTo: ["public.zip-archive", "public.spreadsheet"],
                  mimeTypes: ["application/vnd.oasis.opendocument.spreadsheet"]),
        AppleType(identifier: "org.oasis-open.opendocument.presentation", conformsTo: ["public.zip-archive", "public.presentation"],
                  mimeTypes: ["application/vnd.oasis.opendocument.presentation"]),
        AppleType(identifier: "com.microsoft.word.doc", conformsTo: ["public.data", "public.composite-content"],
                  mimeTypes: ["application/msword"]),
        AppleType(identifier: "com.microsoft.excel.xls", conformsTo: ["public.data", "public.spreadsheet"],
                  mimeTypes: ["application/vnd.ms-excel"]),
        AppleType(identifier: "com.microsoft.powerpoint.ppt", conformsTo: ["public.data", "public.presentation"],
                  mimeTypes: ["application/vnd.ms-powerpoint"]),
        AppleType(identifier: "org.idpf.epub-container", conformsTo: ["public.zip-archive", "public.composite-content"],
                  mimeTypes: ["application/epub+zip"]),
    ]
}
