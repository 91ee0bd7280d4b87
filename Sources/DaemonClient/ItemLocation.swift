import APIModel
import Foundation
import RawPaths
import UbiquitySettings

extension VersionedItem {
    /// The item at `absolutePath`, as the version routes name it: its container and its
    /// path relative to the container folder, in NFC (the mirror's form). The item may not
    /// exist any more (a deleted file still has versions), so it is not looked up on disk;
    /// but a path that is not below the root as written is tried again with symbolic links
    /// resolved in both (a root that is a link, `~/Ubiquity` -> `/data/Ubiquity`, and a path
    /// through its target: what `getcwd` gives). The container folder itself is an item
    /// (path "") only `allowingTheContainerFolder`: for a listing of what is below it.
    public init(absolutePath: String, settings: Settings, allowingTheContainerFolder: Bool = false) throws(ItemLocationError) {
        let path = RawPath(absolutePath).lexicallyNormalized()
        let root = RawPath(settings.root).lexicallyNormalized()
        let below = Self.relative(path, below: root) ?? Self.relative(Self.physical(path), below: Self.physical(root))
        guard let below else {
            throw ItemLocationError("\(path.readable) is not inside the Ubiquity root \(settings.root)")
        }
        guard let first = below.firstComponent, let id = ContainerID(folderName: String(decoding: first, as: UTF8.self)) else {
            throw ItemLocationError("\(path.readable) is not inside a container folder (\(settings.root)/iCloud~…)")
        }
        let relative = below.droppingFirst(1).readable.precomposedStringWithCanonicalMapping
        guard !relative.isEmpty || allowingTheContainerFolder else {
            throw ItemLocationError("\(path.readable) is a container folder; name an item inside it")
        }
        self.init(container: id.identifier, path: relative)
    }

    /// Whether `absolutePath` is the Ubiquity root itself (as written, or with symbolic
    /// links resolved in both): the folder holding every container.
    public static func isRoot(_ absolutePath: String, settings: Settings) -> Bool {
        let path = RawPath(absolutePath).lexicallyNormalized()
        let root = RawPath(settings.root).lexicallyNormalized()
        return path == root || physical(path) == physical(root)
    }

    /// `path` relative to `root`, if it is strictly below it.
    private static func relative(_ path: RawPath, below root: RawPath) -> RawPath? {
        guard path.isSame(orBelow: root), path != root else { return nil }
        return path.droppingFirst(root.components.count)
    }

    /// `path` with the symbolic links of its longest existing start resolved (`realpath`);
    /// the rest, which does not exist (yet, or any more), as it is.
    private static func physical(_ path: RawPath) -> RawPath {
        var existing = path
        var rest: [[UInt8]] = []
        while !existing.components.isEmpty {
            if let resolved = existing.withCString({ realpath($0, nil) }) {
                defer { free(resolved) }
                var physical = RawPath(bytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
                for name in rest.reversed() { physical = physical.appending(name) }
                return physical
            }
            rest.append(existing.lastComponent ?? [])
            existing = existing.removingLastComponent()
        }
        return path
    }
}

/// A path that names no item of a container.
public struct ItemLocationError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
