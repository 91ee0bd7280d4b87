import SystemPackage

/// The watcher's own map from watch descriptors to folder paths (relative to the root).
///
/// libinotifytools keeps a map too, but it keeps a renamed folder's old path and a deleted
/// folder's stale entry (LINUX-NOTES.md), so the watcher keeps this one as the truth.
public struct WatchTable: Sendable {
    private var pathByWatch: [Int32: FilePath] = [:]

    public init() {}

    public var count: Int { pathByWatch.count }

    public func path(of watch: Int32) -> FilePath? { pathByWatch[watch] }

    public mutating func insert(watch: Int32, path: FilePath) {
        pathByWatch[watch] = path
    }

    @discardableResult
    public mutating func remove(watch: Int32) -> FilePath? {
        pathByWatch.removeValue(forKey: watch)
    }

    /// The watches on `folder` and every folder below it.
    public func watches(under folder: FilePath) -> [Int32] {
        pathByWatch.filter { $0.value.isSame(orBelow: folder) }.map(\.key)
    }

    /// Re-points every watch on `from` or below it to the same place below `to`.
    public mutating func move(from: FilePath, to: FilePath) {
        for (watch, path) in pathByWatch where path.isSame(orBelow: from) {
            pathByWatch[watch] = path.rebased(from: from, to: to)
        }
    }
}

extension FilePath {
    /// True when `self` is `folder` or lies below it. The empty path is the root, above all.
    public func isSame(orBelow folder: FilePath) -> Bool {
        folder.isEmpty || self == folder || starts(with: folder)
    }

    /// `self` with its leading `from` replaced by `to`.
    public func rebased(from: FilePath, to: FilePath) -> FilePath {
        var result = to
        result.append(components.dropFirst(from.components.count))
        return result
    }

    /// `self` with one more raw name appended (the bytes are kept as they are).
    public func appending(rawName: [UInt8]) -> FilePath {
        let name = rawName.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                FilePath.Component(platformString: Array(chars) + [0])
            }
        }
        guard let name else { return self }
        var result = self
        result.append(name)
        return result
    }
}

extension FilePath.Component {
    init?(platformString chars: [CChar]) {
        let value: FilePath.Component? = chars.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            return FilePath.Component(platformString: base)
        }
        guard let value else { return nil }
        self = value
    }
}
