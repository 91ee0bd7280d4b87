import APIModel
import ArgumentParser
import DaemonClient
import Foundation
import UbiquitySettings

/// Turns a path typed by the user (absolute, or relative to the current folder) into the
/// container and container-relative path the version routes take (`VersionedItem`).
enum ItemLocator {
    static func locate(_ typed: String, settings: Settings, allowingTheContainerFolder: Bool = false) throws -> VersionedItem {
        let cwd = FileManager.default.currentDirectoryPath
        do {
            return try VersionedItem(
                absolutePath: typed.hasPrefix("/") ? typed : cwd + "/" + typed, settings: settings,
                allowingTheContainerFolder: allowingTheContainerFolder)
        } catch {
            throw ValidationError(error.message)
        }
    }
}
