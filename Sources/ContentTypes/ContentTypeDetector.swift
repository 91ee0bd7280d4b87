/// Gives each file its Apple-style content type: `kMDItemContentType` and
/// `kMDItemContentTypeTree`.
///
/// The MIME type comes from the shared-mime-info database, by file name (the spec's glob
/// rules) and, when the name does not decide, from the first bytes of the file (the
/// spec's magic rules, a text check, then libmagic for other binary data); `TypeCatalog`
/// turns it into a UTI.
///
/// Threads: a detector owns a libmagic cookie, which is not thread-safe, and a small
/// cache. Use one detector per thread or task at a time (it is deliberately not
/// `Sendable`); detectors can share one loaded `MimeDatabase`, which is `Sendable`.
public final class ContentTypeDetector {
    /// How many leading bytes to pass to `contentType(fileName:leadingBytes:)`.
    public static let recommendedSniffLength = 4096

    public static let folder = ContentType.folder
    public static let symlink = ContentType.symlink

    public let database: MimeDatabase
    private let catalog: TypeCatalog
    private let sniffer: MagicSniffer
    private var cache: [String: ContentType] = [:]
    /// `typeByName`'s answers for names only `*.ext` globs match, by the end of the name
    /// that decides them; emptied when it reaches `suffixMemoLimit` entries, so names
    /// with endless distinct endings (`scan.2024-05-01.001`) cannot grow it without bound.
    private var typesBySuffix: [SuffixKey: (type: ContentType, needsContent: Bool)] = [:]
    static let suffixMemoLimit = 4096
    /// How many endings `typeByName` remembers now (for tests of the bound).
    var rememberedSuffixes: Int { typesBySuffix.count }

    /// Loads the database from `databaseDirectories` (most important first), or from the
    /// XDG default folders when nil, and opens libmagic.
    public convenience init(databaseDirectories: [String]? = nil) throws(ContentTypeError) {
        try self.init(database: MimeDatabase(directories: databaseDirectories))
    }

    public init(database: MimeDatabase) throws(ContentTypeError) {
        self.database = database
        self.catalog = TypeCatalog(database: database)
        self.sniffer = try MagicSniffer()
    }

    /// True when the name alone does not decide the type, so the caller should read the
    /// first `recommendedSniffLength` bytes and pass them in.
    public func needsContent(fileName: some Collection<UInt8>) -> Bool {
        decidedByName(database.mimeTypes(forFileName: fileName)) == nil
    }

    public func needsContent(fileName: String) -> Bool {
        needsContent(fileName: Array(fileName.utf8))
    }

    /// The type the name alone gives a regular file, and whether its first bytes could still
    /// change it (`needsContent`): both from one lookup of the name, where calling
    /// `contentType(fileName:leadingBytes: nil)` and `needsContent(fileName:)` took two.
    public func typeByName(_ fileName: some Collection<UInt8>) -> (type: ContentType, needsContent: Bool) {
        switch database.globs.match(forName: Array(fileName)) {
        case .whole(let candidates):
            return typeByName(candidates: candidates)
        case .suffix(let key):
            if let known = typesBySuffix[key] { return known }
            let found = typeByName(candidates: database.globs.mimeTypes(forSuffix: key))
            if typesBySuffix.count >= Self.suffixMemoLimit { typesBySuffix.removeAll(keepingCapacity: true) }
            typesBySuffix[key] = found
            return found
        }
    }

    private func typeByName(candidates: [String]) -> (type: ContentType, needsContent: Bool) {
        if let decided = decidedByName(candidates) { return (contentType(mimeType: decided), false) }
        return (contentType(mimeType: candidates.first ?? "application/octet-stream"), true)
    }

    /// The type of a regular file named `fileName` (raw bytes, any encoding).
    /// `leadingBytes`: its first bytes, or nil to decide by name only; `[]` for an empty
    /// file. Without a name match the type comes from the content, and is `public.data`
    /// when nothing is known (as macOS does for unknown and empty files).
    public func contentType(fileName: some Collection<UInt8>, leadingBytes: [UInt8]?) -> ContentType {
        let candidates = database.mimeTypes(forFileName: fileName)
        if let decided = decidedByName(candidates) { return contentType(mimeType: decided) }
        guard let leadingBytes else {
            return contentType(mimeType: candidates.first ?? "application/octet-stream")
        }
        guard !leadingBytes.isEmpty else {
            return contentType(mimeType: candidates.first ?? "application/x-zerosize")
        }
        let sniffed = sniff(leadingBytes)
        // The spec: a glob candidate equal to or more specific than the sniffed type wins
        // (a text file called x.doc stays text); otherwise the best glob, then the sniff.
        if let match = candidates.first(where: { database.isSubclass($0, of: sniffed) }) {
            return contentType(mimeType: match)
        }
        return contentType(mimeType: candidates.first ?? sniffed)
    }

    public func contentType(fileName: String, leadingBytes: [UInt8]?) -> ContentType {
        contentType(fileName: Array(fileName.utf8), leadingBytes: leadingBytes)
    }

    /// The MIME type of a file's first bytes: by shared-mime-info's magic rules, else
    /// text/plain if they look like text, else what libmagic makes of them (it knows more
    /// binary formats; it is not asked about text, which costs it about a millisecond).
    private func sniff(_ bytes: [UInt8]) -> String {
        if let type = database.magic.mimeType(of: bytes) { return database.canonical(type) }
        if TextHeuristic.looksLikeText(bytes) { return "text/plain" }
        return sniffer.mimeType(of: bytes).map(database.canonical) ?? "application/octet-stream"
    }

    /// The ContentType of a MIME type (aliases accepted).
    public func contentType(mimeType: String) -> ContentType {
        if let cached = cache[mimeType] { return cached }
        let type = catalog.contentType(mimeType: mimeType)
        cache[mimeType] = type
        return type
    }

    /// The one MIME type the name decides: a single candidate, or among several the one
    /// every other candidate is a subclass of (`*.json`: application/json over
    /// application/schema+json) — content could only ever confirm it.
    private func decidedByName(_ candidates: [String]) -> String? {
        if candidates.count == 1 { return candidates[0] }
        return candidates.first { general in
            candidates.allSatisfy { database.isSubclass($0, of: general) }
        }
    }
}
