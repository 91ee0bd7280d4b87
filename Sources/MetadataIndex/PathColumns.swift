import Foundation
import PredicateKit
import RawPaths

/// The name and path columns derived from an item's paths.
enum PathColumns {
    private static let documents = Array("Documents".utf8)

    /// The `scope` column: the documents scope is the container's `Documents` folder.
    static func scope(of relative: RawPath) -> String {
        relative.firstComponent == documents ? "documents" : "data"
    }

    /// Appends fs_name, its fold, display_name, its fold, path, its fold and url, in that
    /// order. The display name is the file name (extensions are not hidden).
    static func appendTextColumns<Sink: ColumnSink>(
        relative: RawPath, absolute: RawPath, isFolder: Bool, parents: inout ParentFolderCache, to sink: inout Sink
    ) {
        let name = relative.lastComponent.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let foldedName = ParentFolderCache.fold(name)
        sink.append(name)
        sink.append(foldedName)
        sink.append(name)
        sink.append(foldedName)
        parents.appendPathColumns(absolute, foldedName: foldedName, isFolder: isFolder, to: &sink)
    }
}

/// What an item's path columns take from its parent folder, kept from the previous item:
/// rows are mostly written in path order, siblings one after another. The columns are
/// computed for the path up to its last slash, then the name is added:
/// - `path`: the path's own bytes when they are ASCII (valid UTF-8 as they are), otherwise
///   its readable form (invalid UTF-8 repaired), made anew.
/// - `path_fold`: folding maps each scalar on its own and '/' is a starter that nothing
///   composes with, so fold(folder + "/" + name) = fold(folder + "/") + fold(name).
/// - `url`: percent-encoding goes byte by byte (encoding the whole path for each row was
///   about 9% of the row thread in a profile of a fresh start).
/// The columns go to the sink as bytes in two parts, with no string made for them.
struct ParentFolderCache {
    /// The last path's bytes up to and including its last slash: what the rest is kept for.
    private var prefix: [UInt8]?
    private var prefixIsASCII = false
    /// The UTF-8 of the prefix's fold.
    private var foldedPrefix: [UInt8] = []
    private var prefixURL: [UInt8] = []
    /// The encoded name of the current row (kept for its capacity).
    private var encodedName: [UInt8] = []

    static func fold(_ text: String) -> String {
        PredicateFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true)
    }

    /// Appends `absolute.readable`, `fold(absolute.readable)` (given the fold of the path's
    /// name) and `absolute.fileURLString(isFolder:)`.
    mutating func appendPathColumns<Sink: ColumnSink>(_ absolute: RawPath, foldedName: String, isFolder: Bool, to sink: inout Sink) {
        guard let nameStart = enterFolder(of: absolute) else {
            let readable = absolute.readable
            sink.append(readable)
            sink.append(Self.fold(readable))
            sink.append(absolute.fileURLString(isFolder: isFolder))
            return
        }
        let name = absolute.bytes[nameStart...]
        if prefixIsASCII && Self.isASCII(name) {
            sink.appendText(absolute.bytes, EmptyCollection())
        } else {
            sink.append(absolute.readable)
        }
        sink.appendText(foldedPrefix, foldedName.utf8)
        encodedName.removeAll(keepingCapacity: true)
        RawPath.appendPercentEncoded(name, to: &encodedName)
        // The name holds no '/', nor does its encoding end in one.
        if isFolder { encodedName.append(UInt8(ascii: "/")) }
        sink.appendText(prefixURL, encodedName)
    }

    /// Makes the cache hold what the folder of `absolute` gives, and returns where the
    /// path's name starts; nil when it has no name (it is empty or ends in '/').
    private mutating func enterFolder(of absolute: RawPath) -> Int? {
        let bytes = absolute.bytes
        let nameStart = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
        guard nameStart < bytes.count else { return nil }
        if !holdsFolder(bytes, upTo: nameStart) {
            let folder = bytes[..<nameStart]
            prefix = Array(folder)
            prefixIsASCII = Self.isASCII(folder)
            foldedPrefix = Array(Self.fold(String(decoding: folder, as: UTF8.self)).utf8)
            prefixURL = Array("file://".utf8)
            RawPath.appendPercentEncoded(folder, to: &prefixURL)
        }
        return nameStart
    }

    /// Whether the cache is for the first `count` bytes of `bytes`. Compared with memcmp:
    /// comparing slices element by element was about 5% of the row thread.
    private func holdsFolder(_ bytes: [UInt8], upTo count: Int) -> Bool {
        guard let prefix, prefix.count == count else { return false }
        guard count > 0 else { return true }  // (an empty array may have no address)
        return prefix.withUnsafeBytes { held in bytes.withUnsafeBytes { memcmp(held.baseAddress!, $0.baseAddress!, count) == 0 } }
    }

    private static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }
}
