// MIME type → ContentType: Apple's UTI where one is declared for the MIME type (or an
// alias of it), otherwise a dynamic UTI whose tree follows the shared-mime-info subclass
// chain into the Apple types (text/x-lua → text/plain → public.plain-text → …).

/// Maps MIME types to UTIs and builds conformance trees. Immutable, `Sendable`.
struct TypeCatalog: Sendable {
    /// The prefix of dynamic UTIs for MIME types Apple declares no UTI for.
    static let dynamicPrefix = "org.freedesktop.mime."
    private static let executableMime = "application/x-executable"

    let database: MimeDatabase
    private let conformance: [String: [String]]
    private let utiForMime: [String: String]

    init(database: MimeDatabase, types: [AppleType] = AppleTypes.all) {
        self.database = database
        var conformance: [String: [String]] = [:]
        var utiForMime: [String: String] = [:]
        for type in types {
            conformance[type.identifier] = type.conformsTo
            for mime in type.mimeTypes where utiForMime[database.canonical(mime)] == nil {
                utiForMime[database.canonical(mime)] = type.identifier
            }
        }
        self.conformance = conformance
        self.utiForMime = utiForMime
    }

    /// The ContentType of a MIME type (any alias accepted).
    func contentType(mimeType: String) -> ContentType {
        let mime = database.canonical(mimeType)
        if let uti = utiForMime[mime] {
            return ContentType(identifier: uti, tree: appleTree(uti), mimeType: mime)
        }
        var tree: [String] = []
        var visitedMimes: Set<String> = []
        appendDynamicTree(mime, to: &tree, visited: &visitedMimes)
        return ContentType(identifier: Self.dynamicIdentifier(mime), tree: tree, mimeType: mime)
    }

    /// The Apple conformance tree of a declared UTI, depth first, each type once.
    func appleTree(_ identifier: String) -> [String] {
        var tree: [String] = []
        appendAppleTree(identifier, to: &tree)
        return tree
    }

    private func appendAppleTree(_ identifier: String, to tree: inout [String]) {
        guard !tree.contains(identifier) else { return }
        tree.append(identifier)
        for parent in conformance[identifier] ?? [] { appendAppleTree(parent, to: &tree) }
    }

    private func appendDynamicTree(_ mime: String, to tree: inout [String], visited: inout Set<String>) {
        guard visited.insert(mime).inserted else { return }
        if let uti = utiForMime[mime] {
            appendAppleTree(uti, to: &tree)
            return
        }
        let identifier = Self.dynamicIdentifier(mime)
        if !tree.contains(identifier) { tree.append(identifier) }
        // shared-mime-info makes scripts subclasses of application/x-executable; Apple's
        // public.unix-executable means a binary, so a script only gains public.executable,
        // after its text ancestry (as com.netscape.javascript-source lists it).
        let parents = database.parents(of: mime)
        for parent in parents where parent != Self.executableMime {
            appendDynamicTree(parent, to: &tree, visited: &visited)
        }
        if parents.contains(Self.executableMime) { appendAppleTree("public.executable", to: &tree) }
    }

    /// `org.freedesktop.mime.` + the MIME type with `/` → `-`, lower-cased; any byte a UTI
    /// may not hold (anything but `a-z 0-9 . -`) is written `-xHH-` in hex, so
    /// `image/svg+xml` → `org.freedesktop.mime.image-svg-x2b-xml`. Stable across runs and
    /// machines, and distinct for every type of the database (no two differ only in
    /// where their `/` is).
    static func dynamicIdentifier(_ mime: String) -> String {
        var result = dynamicPrefix
        for byte in mime.lowercased().utf8 {
            switch byte {
            case UInt8(ascii: "/"): result += "-"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                result += "-x" + (hex.count == 1 ? "0" + hex : hex) + "-"
            }
        }
        return result
    }
}
