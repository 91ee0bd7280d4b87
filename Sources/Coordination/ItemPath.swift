import Foundation

/// A canonical absolute path as raw bytes: no empty, `.` or `..` components, no trailing
/// slash, and symbolic links in its folders resolved, so that two spellings of one item map
/// to one lock file. Bytes, not a `String`: newlines and invalid UTF-8 are ordinary here.
struct ItemPath: Hashable, Sendable, CustomStringConvertible {
    let bytes: [UInt8]

    init(canonicalBytes: [UInt8]) { bytes = canonicalBytes }

    /// Canonicalizes `raw`. `..` is resolved as the kernel does, physically: `l/..` with `l`
    /// a link to `e/f` names `e`, not the folder holding `l`. Only in the part of the path
    /// that does not exist yet is `..` applied lexically. With `resolvingFinalLink` a
    /// symbolic link at the path itself is followed too.
    init(raw: [UInt8], resolvingFinalLink: Bool) throws(CoordinationError) {
        var folders = ResolvedFolders()
        try self.init(raw: raw, resolvingFinalLink: resolvingFinalLink, folders: &folders)
    }

    /// Folders already resolved for the items of one claim: the files of one folder,
    /// claimed together, resolve it once (`realpath` costs a `readlink` per component).
    struct ResolvedFolders {
        fileprivate var byRawFolder: [[UInt8]: [UInt8]] = [:]
    }

    init(raw: [UInt8], resolvingFinalLink: Bool, folders: inout ResolvedFolders) throws(CoordinationError) {
        var absolute = raw
        if absolute.first != UInt8(ascii: "/") {
            do { absolute = try Sys.getcwd() + [UInt8(ascii: "/")] + raw } catch {
                throw .syscall("getcwd", error, path: ItemPath.display(raw), detail: "the working directory")
            }
        }
        let components = ItemPath.components(absolute)
        guard !resolvingFinalLink, let name = components.last, !ItemPath.isParent(name) else {
            bytes = try ItemPath.resolve(components, resolvingFinalLink: resolvingFinalLink)
            return
        }
        // The item's folder is resolved whole (links included), as `resolve` would with
        // the final link left alone; then the name is appended unchanged.
        let rawFolder = ItemPath.join(components.dropLast())
        var folder: [UInt8]
        if let known = folders.byRawFolder[rawFolder] {
            folder = known
        } else {
            folder = try ItemPath.resolve(Array(components.dropLast()), resolvingFinalLink: true)
            folders.byRawFolder[rawFolder] = folder
        }
        if folder != [UInt8(ascii: "/")] { folder.append(UInt8(ascii: "/")) }
        bytes = folder + name
    }

    init(url: URL, resolvingFinalLink: Bool, folders: inout ResolvedFolders) throws(CoordinationError) {
        try self.init(raw: ItemPath.rawBytes(of: url), resolvingFinalLink: resolvingFinalLink, folders: &folders)
    }

    /// The bytes a file URL names. (Foundation on Linux keeps no bytes that are not UTF-8
    /// in a URL: it puts U+FFFD in their place. Such names are claimed by their bytes.)
    static func rawBytes(of url: URL) throws(CoordinationError) -> [UInt8] {
        guard url.isFileURL else {
            throw CoordinationError(code: .invalidURL, message: "\(url) is not a file URL", path: url.absoluteString)
        }
        return url.withUnsafeFileSystemRepresentation { pointer in
            pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
        }
    }

    init(url: URL, resolvingFinalLink: Bool) throws(CoordinationError) {
        var folders = ResolvedFolders()
        try self.init(url: url, resolvingFinalLink: resolvingFinalLink, folders: &folders)
    }

    var url: URL {
        bytes.withCString { URL(fileURLWithFileSystemRepresentation: $0, isDirectory: false, relativeTo: nil) }
    }

    /// The path for messages: invalid UTF-8 shows as U+FFFD, control characters escaped.
    var description: String { ItemPath.display(bytes) }

    static func display(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
    }

    /// The path itself, then each folder above it up to `/`.
    var selfAndAncestors: [ItemPath] {
        var paths = [self]
        for index in bytes.indices.reversed() where bytes[index] == UInt8(ascii: "/") {
            paths.append(ItemPath(canonicalBytes: index == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<index])))
        }
        return paths.count > 1 && paths[0].bytes == [UInt8(ascii: "/")] ? [self] : paths
    }

    var exists: Bool {
        (try? bytes.withCString { (pointer) throws(Errno) in try Sys.exists(pointer) }) ?? true
    }

    /// Whether `self` is `other` or lies below it.
    func isSameOrBelow(_ other: ItemPath) -> Bool {
        if other.bytes == [UInt8(ascii: "/")] { return true }
        guard bytes.starts(with: other.bytes) else { return false }
        return bytes.count == other.bytes.count || bytes[other.bytes.count] == UInt8(ascii: "/")
    }

    /// The path's components without empty and `.` ones; `..` is kept for `resolve`, since
    /// only the filesystem knows which folder it leads to.
    private static func components(_ absolute: [UInt8]) -> [ArraySlice<UInt8>] {
        absolute.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
            .filter { !$0.elementsEqual([UInt8(ascii: ".")]) }
    }

    private static func isParent(_ component: ArraySlice<UInt8>) -> Bool {
        component.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
    }

    /// `components` with each `..` taking away the component before it: for paths (or
    /// their tails) that do not exist, where there is no link to follow.
    private static func lexical(_ components: some Collection<ArraySlice<UInt8>>, below base: [UInt8] = []) -> [UInt8] {
        var path = base
        for component in components {
            if isParent(component) {
                let cut = path.lastIndex(of: UInt8(ascii: "/")) ?? 0
                path.removeSubrange(cut...)
            } else {
                path.append(UInt8(ascii: "/"))
                path.append(contentsOf: component)
            }
        }
        return path.isEmpty ? [UInt8(ascii: "/")] : path
    }

    private static func join(_ components: some Collection<ArraySlice<UInt8>>) -> [UInt8] {
        var joined: [UInt8] = []
        for component in components {
            joined.append(UInt8(ascii: "/"))
            joined.append(contentsOf: component)
        }
        return joined.isEmpty ? [UInt8(ascii: "/")] : joined
    }

    /// Resolves links and `..` in the deepest existing folder of the path with
    /// `realpath(3)` and appends the components that do not exist (yet), `..` lexically.
    private static func resolve(_ components: [ArraySlice<UInt8>], resolvingFinalLink: Bool) throws(CoordinationError) -> [UInt8] {
        var existing = resolvingFinalLink ? components.count : max(components.count - 1, 0)
        while true {
            let prefix = join(components[..<existing])
            do {
                let resolved = try prefix.withCString { (pointer) throws(Errno) in try Sys.realpath(pointer) }
                return lexical(components[existing...], below: resolved == [UInt8(ascii: "/")] ? [] : resolved)
            } catch let error where error.rawValue == ENOENT || error.rawValue == ENOTDIR || error.rawValue == ENAMETOOLONG {
                if existing == 0 { return lexical(components) }
                existing -= 1
            } catch {
                // Unreadable folders (EACCES, ELOOP): fall back to the lexical path.
                return lexical(components)
            }
        }
    }
}
