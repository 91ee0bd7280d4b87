import APIModel
import ArgumentParser
import Foundation
import RawPaths
import UbiquitySettings

/// Turns a path typed by the user (absolute, or relative to the current folder) into the
/// container and container-relative path the version routes take. The item may not exist
/// any more (a deleted file still has versions), so nothing is resolved on disk.
enum ItemLocator {
    static func locate(_ typed: String, settings: Settings) throws -> VersionedItem {
        let cwd = FileManager.default.currentDirectoryPath
        let absolute = RawPath(typed.hasPrefix("/") ? typed : cwd + "/" + typed).lexicallyNormalized()
        let root = RawPath(settings.root).lexicallyNormalized()
        guard absolute.isSame(orBelow: root), absolute != root else {
            throw ValidationError("\(typed) is not inside the Ubiquity root \(settings.root)")
        }
        let below = absolute.droppingFirst(root.components.count)
        guard let first = below.firstComponent, let id = ContainerID(folderName: String(decoding: first, as: UTF8.self)) else {
            throw ValidationError("\(typed) is not inside a container folder (ROOT/iCloud~…)")
        }
        let relative = below.droppingFirst(1).readable.precomposedStringWithCanonicalMapping
        guard !relative.isEmpty else { throw ValidationError("\(typed) is a container folder; name an item inside it") }
        return VersionedItem(container: id.identifier, path: relative)
    }
}
