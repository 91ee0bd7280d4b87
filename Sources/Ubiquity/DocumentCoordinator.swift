import DaemonClient
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
    /// reads and writes that `ubqd`, `ubq` and other apps respect. Its accesses ask and tell
    /// the file presenters of other processes through ubqd (`DaemonPresenterRelay`), waiting
    /// at most `presenterDeadline` for their answers; without ubqd it locks only.
    public static func fileCoordinator(
        timeout: Duration? = nil, presenterDeadline: Duration = DaemonPresenterRelay.defaultDeadline,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FileCoordinator {
        let settings = try currentSettings(environment: environment)
        return try FileCoordinator(
            lockDirectory: URL(fileURLWithPath: settings.runtimeDirectory + "/locks", isDirectory: true), timeout: timeout,
            relay: DaemonPresenterRelay(settings: settings, deadline: presenterDeadline))
    }
}
