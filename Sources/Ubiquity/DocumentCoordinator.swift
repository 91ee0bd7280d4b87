import Foundation
import UbiquitySettings

extension UbiquityContainer {
    /// The lock directory every process coordinating Ubiquity files shares:
    /// `runtimeDirectory/locks` of the settings resolved from `environment`, as `ubqd` and
    /// `ubq` resolve them.
    public static func lockDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> URL {
        let settings = try currentSettings(environment: environment)
        return URL(fileURLWithPath: settings.runtimeDirectory + "/locks", isDirectory: true)
    }

    /// A file coordinator on `lockDirectory(environment:)`, for `Document`s and coordinated
    /// reads and writes that `ubqd`, `ubq` and other apps respect.
    public static func fileCoordinator(
        timeout: Duration? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FileCoordinator {
        try FileCoordinator(lockDirectory: lockDirectory(environment: environment), timeout: timeout)
    }
}
