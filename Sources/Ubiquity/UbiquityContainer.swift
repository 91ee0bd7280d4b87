import Foundation
import UbiquitySettings

/// Where an app's ubiquity container lives, as `FileManager.url(forUbiquityContainerIdentifier:)`
/// tells on Apple's systems.
public enum UbiquityContainer {
    /// The container folder for `identifier` (nil: the default container), or nil when
    /// the container does not exist yet (ubqd creates configured containers at start).
    /// Settings resolve exactly as `ubqd` resolves them, from the same environment.
    public static func url(
        forIdentifier identifier: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL? {
        let settings = try currentSettings(environment: environment)
        let id = try identifier.map { try ContainerID($0) } ?? ContainerID.defaultContainer
        let folder = settings.container(id).folder
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return URL(fileURLWithPath: folder, isDirectory: true)
    }

    /// The container's `Documents` folder: the user-visible scope.
    public static func documentsURL(forIdentifier identifier: String? = nil) throws -> URL? {
        try url(forIdentifier: identifier)?.appendingPathComponent("Documents", isDirectory: true)
    }

    static func currentSettings(environment: [String: String]) throws -> Settings {
        try Settings.resolve(
            overrides: SettingsOverrides(), environment: environment,
            currentDirectory: FileManager.default.currentDirectoryPath
        ) { path in
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch let error as CocoaError where error.code == .fileReadNoSuchFile { return nil }
        }
    }
}
