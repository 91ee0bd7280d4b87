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
    /// the file presenters through ubqd (`DaemonPresenterRelay`), waiting at most
    /// `presenterDeadline` for their answers; without ubqd it locks only.
    ///
    /// As NSFileCoordinator(filePresenter:): the accesses are made for `filePresenter`, which
    /// is neither asked nor told of them. Every other presenter is, this process's own too
    /// (a second window on the same file hears of the first one's save). Name the presenter
    /// that makes the change, or it hears of its own writes.
    public static func fileCoordinator(
        filePresenter: (any FilePresenter)? = nil, timeout: Duration? = nil,
        presenterDeadline: Duration = DaemonPresenterRelay.defaultDeadline,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FileCoordinator {
        let settings = try currentSettings(environment: environment)
        return try FileCoordinator(
            lockDirectory: URL(fileURLWithPath: settings.runtimeDirectory + "/locks", isDirectory: true), timeout: timeout,
            relay: DaemonPresenterRelay(settings: settings, deadline: presenterDeadline, filePresenter: presenterID(filePresenter)))
    }

    /// Asks, at each access, for the id `presenter` is registered under (it may be
    /// registered after the coordinator is made, or removed before it goes).
    private static func presenterID(_ presenter: (any FilePresenter)?) -> (@Sendable () -> String?)? {
        guard let presenter else { return nil }
        return { [weak presenter] in
            presenter.flatMap(SharedPresenterConnection.id(of:))
        }
    }
}
