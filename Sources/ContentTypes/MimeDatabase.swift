/// The freedesktop shared-mime-info database: file-name globs, the subclass graph,
/// aliases and content rules, read from `globs2`, `subclasses`, `aliases` and `magic` of
/// each database folder.
///
/// Immutable and `Sendable`: load it once and share it between detectors.
public struct MimeDatabase: Sendable {
    let globs: GlobIndex
    private let parents: [String: [String]]
    private let aliases: [String: String]
    /// The content rules of the `magic` files.
    public let magic: MimeMagic
    /// The folders read, most important first.
    public let directories: [String]

    /// Builds a database from file contents, most important folder first
    /// (the form `init(directories:)` reads from disk; also handy in tests). `magic`: the
    /// folders' `magic` files, most important first.
    public init(files: [(globs2: String, subclasses: String, aliases: String)], magic: [[UInt8]] = [], directories: [String] = []) {
        var globs: [Glob] = []
        var parents: [String: [String]] = [:]
        var aliases: [String: String] = [:]
        // Least important first, so that __NOGLOBS__ and alias overrides of more important
        // folders apply on top.
        for file in files.reversed() {
            DatabaseParsing.mergeGlobs(file.globs2, into: &globs)
            DatabaseParsing.mergePairs(file.subclasses) { child, parent in
                if !parents[child, default: []].contains(parent) { parents[child, default: []].append(parent) }
            }
            DatabaseParsing.mergePairs(file.aliases) { alias, canonical in aliases[alias] = canonical }
        }
        self.globs = GlobIndex(globs)
        self.parents = parents
        self.aliases = aliases
        self.magic = MimeMagic(files: magic)
        self.directories = directories
    }

    /// The canonical name of a MIME type (`text/x-c` → `text/x-csrc`), lower-cased.
    public func canonical(_ mimeType: String) -> String {
        let lowered = mimeType.lowercased()
        return aliases[lowered] ?? lowered
    }

    /// Direct parents, including the spec's implicit ones: every `text/*` is a
    /// `text/plain`, everything but `inode/*` is an `application/octet-stream`.
    public func parents(of mimeType: String) -> [String] {
        let type = canonical(mimeType)
        var result = (parents[type] ?? []).map(canonical)
        if type.hasPrefix("text/") && type != "text/plain" && !result.contains("text/plain") {
            result.append("text/plain")
        }
        if !type.hasPrefix("inode/") && type != "application/octet-stream" && !result.contains("application/octet-stream") {
            result.append("application/octet-stream")
        }
        return result
    }

    /// Whether `mimeType` is `ancestor` or a (transitive) subclass of it.
    public func isSubclass(_ mimeType: String, of ancestor: String) -> Bool {
        let target = canonical(ancestor)
        var seen: Set<String> = []
        var queue = [canonical(mimeType)]
        while let type = queue.popLast() {
            if type == target { return true }
            if seen.insert(type).inserted { queue += parents(of: type) }
        }
        return false
    }

    /// The MIME types a file name points to (see `GlobIndex`): one when the name decides,
    /// several when equally good rules disagree, none when nothing matches.
    public func mimeTypes(forFileName name: some Collection<UInt8>) -> [String] {
        globs.mimeTypes(forName: Array(name))
    }
}

/// Line parsers for the three database files.
enum DatabaseParsing {
    static func mergeGlobs(_ text: String, into globs: inout [Glob]) {
        var added: [Glob] = []
        var seen: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let weight = Int(fields[0]) else { continue }
            let type = String(fields[1])
            let pattern = String(fields[2])
            if pattern == "__NOGLOBS__" {
                globs.removeAll { $0.mimeType == type }
                continue
            }
            let caseSensitive = fields.count > 3 && fields[3].split(separator: ",").contains("cs")
            // update-mime-database repeats a case-sensitive glob without its flag for old
            // readers: the first line of a (type, pattern) pair wins, as in Qt and xdgmime.
            guard seen.insert(type + "\u{0}" + pattern).inserted else { continue }
            let bytes = Array(pattern.utf8)
            added.append(Glob(mimeType: type, weight: weight,
                              pattern: caseSensitive ? bytes : GlobPattern.folded(bytes), caseSensitive: caseSensitive))
        }
        globs = added + globs
    }

    static func mergePairs(_ text: String, _ body: (String, String) -> Void) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { body(String(fields[0]).lowercased(), String(fields[1]).lowercased()) }
        }
    }
}
