import Glibc
/// A path as the filesystem sees it: bytes separated by '/'.
///
/// Linux names are bytes, not text: a name may hold a newline or be invalid UTF-8, and it
/// must keep its identity through the watcher, the index and back to `open`. This type
/// keeps the bytes and does only what the daemon needs, cheaply: it sits on the hot path
/// of every inotify event. A relative path has no leading '/'; the empty path is the root
/// of whatever it is relative to.
public struct RawPath: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    public private(set) var bytes: [UInt8]

    public init() {
        bytes = []
    }

    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes)
        while self.bytes.count > 1 && self.bytes.last == Self.slash { self.bytes.removeLast() }
    }

    public init(_ text: String) {
        self.init(bytes: text.utf8)
    }

    public init(stringLiteral text: String) {
        self.init(text)
    }

    static let slash = UInt8(ascii: "/")

    public var isEmpty: Bool { bytes.isEmpty }
    public var isAbsolute: Bool { bytes.first == Self.slash }

    /// The names, in order ('/' separators and empty names dropped).
    public var components: [ArraySlice<UInt8>] {
        bytes.split(separator: Self.slash, omittingEmptySubsequences: true)
    }

    public var lastComponent: [UInt8]? {
        guard let index = bytes.lastIndex(of: Self.slash) else { return bytes.isEmpty ? nil : bytes }
        return index == bytes.count - 1 ? nil : Array(bytes[(index + 1)...])
    }

    /// The first name of the path; nil when it has none. Found in place: splitting the whole
    /// path into components for the first was about 8% of the index's row thread (a profile
    /// of a fresh start).
    public var firstComponent: [UInt8]? {
        guard let start = bytes.firstIndex(where: { $0 != Self.slash }) else { return nil }
        let end = bytes[start...].firstIndex(of: Self.slash) ?? bytes.endIndex
        return Array(bytes[start..<end])
    }

    /// `self/name`.
    public func appending(_ name: some Collection<UInt8>) -> RawPath {
        appending(ArraySlice(name))
    }

    /// `self/name`, for the callers on hot paths (the start-up walk names every item
    /// twice): generic code is not specialized across modules, and the generic form was
    /// about a tenth of the walk's thread in a profile of a fresh start.
    public func appending(_ name: [UInt8]) -> RawPath {
        appending(name[...])
    }

    /// `self/name`.
    public func appending(_ name: ArraySlice<UInt8>) -> RawPath {
        if name.isEmpty { return self }
        var result: [UInt8]
        if bytes.isEmpty {
            result = Array(name)
        } else {
            result = bytes
            result.reserveCapacity(bytes.count + 1 + name.count)
            if result.last != Self.slash { result.append(Self.slash) }
            result.append(contentsOf: name.drop(while: { $0 == Self.slash }))
        }
        while result.count > 1 && result.last == Self.slash { result.removeLast() }
        return RawPath(normalized: result)
    }

    /// A path whose bytes are known to end in no '/' (but a lone one).
    private init(normalized bytes: [UInt8]) {
        self.bytes = bytes
    }

    public func appending(_ name: String) -> RawPath { appending(Array(name.utf8)) }
    public func appending(_ other: RawPath) -> RawPath { appending(other.bytes) }

    /// The path without its first `count` names (relative).
    public func droppingFirst(_ count: Int) -> RawPath {
        RawPath(joining: components.dropFirst(count))
    }

    /// Every folder above this path, nearest first (for a relative path, down to but not
    /// including the empty path).
    public var ancestors: [RawPath] {
        var result: [RawPath] = []
        var current = removingLastComponent()
        while !current.isEmpty && current != self && current.bytes != [Self.slash] {
            result.append(current)
            current = current.removingLastComponent()
        }
        return result
    }

    public func removingLastComponent() -> RawPath {
        guard let index = bytes.lastIndex(of: Self.slash) else { return RawPath(bytes: []) }
        return RawPath(bytes: index == 0 ? [Self.slash] : Array(bytes[..<index]))
    }

    init(joining names: some Sequence<ArraySlice<UInt8>>) {
        self.init(bytes: Array(names.joined(separator: [Self.slash])))
    }

    /// True when `self` is `folder` or lies below it. The empty path contains every
    /// relative path.
    public func isSame(orBelow folder: RawPath) -> Bool {
        if folder.isEmpty { return !isAbsolute }
        guard bytes.count >= folder.bytes.count, bytes.starts(with: folder.bytes) else { return false }
        return bytes.count == folder.bytes.count || bytes[folder.bytes.count] == Self.slash || folder.bytes.last == Self.slash
    }

    /// `self` with its leading `from` replaced by `to`; `self` unchanged if not below `from`.
    public func rebased(from: RawPath, to: RawPath) -> RawPath {
        guard isSame(orBelow: from) else { return self }
        return to.appending(RawPath(bytes: bytes.dropFirst(from.bytes.count)))
    }

    /// A readable rendering: invalid UTF-8 becomes U+FFFD. For display and text search
    /// only; the bytes stay the identity.
    public var readable: String { String(decoding: bytes, as: UTF8.self) }
    public var description: String { readable }

    /// Calls `body` with the path as a NUL-terminated C string.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try bytes.withCString(body)
    }

    // Hashing over the whole byte buffer at once: paths are dictionary keys on every hot
    // path (the settler, reconciliation), and the synthesized hash goes byte by byte.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Byte order (as SQLite's BLOB order and `memcmp`), compared with `memcmp`: sorting a
    /// whole tree's paths is part of every start-up scan.
    public static func < (lhs: RawPath, rhs: RawPath) -> Bool {
        precedes(lhs.bytes, rhs.bytes)
    }

    /// Byte order of raw byte strings, for keys that are not paths (a path with a trailing
    /// `/` is not a `RawPath`: it loses the slash).
    public static func precedes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string, copied into a temporary
    /// buffer (on the stack when small): a walk makes one of these per item it stats, and
    /// a heap copy each time was a tenth of the walk's own time.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyBytes(from: self)
            buffer[count] = 0
            return try body(UnsafePointer(buffer.baseAddress!))
        }
    }
}
