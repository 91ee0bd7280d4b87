import APIModel
import Foundation
import RawPaths
import UbiquitySettings

extension VersionedItem {
    /// The item at `absolutePath`, as the version routes name it: its container and its
    /// path relative to the container folder, in NFC (the mirror's form). The item may not
    /// exist any more (a deleted file still has versions), so nothing is looked up on disk.
    public init(absolutePath: String, settings: Settings) throws(ItemLocationError) {
        let absolute = RawPath(absolutePath).lexicallyNormalized()
        let root = RawPath(settings.root).lexicallyNormalized()
        guard absolute.isSame(orBelow: root), absolute != root else {
            throw ItemLocationError("\(absolutePath) is not inside the Ubiquity root \(settings.root)")
        }
        let below = absolute.droppingFirst(root.components.count)
        guard let first = below.firstComponent, let id = ContainerID(folderName: String(decoding: first, as: UTF8.self)) else {
            throw ItemLocationError("\(absolutePath) is not inside a container folder (\(settings.root)/iCloud~…)")
        }
        let relative = below.droppingFirst(1).readable.precomposedStringWithCanonicalMapping
        guard !relative.isEmpty else { throw ItemLocationError("\(absolutePath) is a container folder; name an item inside it") }
        self.init(container: id.identifier, path: relative)
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
