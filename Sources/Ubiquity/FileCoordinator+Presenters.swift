import Foundation
import Synchronization

/// NSFileCoordinator's class methods for presenters: one connection per process to the
/// ubqd that the environment names (as `UbiquityContainer` resolves it), opened with the
/// first presenter.
extension FileCoordinator {
    /// Registers `presenter` with ubqd, so that coordinated accesses ask and tell it (see
    /// `FilePresenter`), except those made for it (`UbiquityContainer.fileCoordinator(filePresenter:)`).
    /// Returns once ubqd knows of it: true; false when ubqd is not running (it is registered
    /// as soon as ubqd answers) or the settings do not resolve. `environment` names the ubqd,
    /// as `UbiquityContainer` resolves it.
    @discardableResult
    public static func addFilePresenter(
        _ presenter: any FilePresenter, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async -> Bool {
        guard let connection = SharedPresenterConnection.connection(environment: environment) else { return false }
        return await connection.add(presenter)
    }

    /// Unregisters `presenter`, wherever it was registered.
    public static func removeFilePresenter(_ presenter: any FilePresenter) async {
        await SharedPresenterConnection.connection(of: presenter)?.remove(presenter)
    }

    /// The presenters this process registered.
    public static var filePresenters: [any FilePresenter] {
        SharedPresenterConnection.connection()?.presenters ?? []
    }
}

/// The process's presenter connection, made on first use from the environment.
/// (A `Document` given an environment of its own names its ubqd by it: one connection per
/// ubqd's socket.)
enum SharedPresenterConnection {
    private static let shared = Mutex<[String: PresenterConnection]>([:])

    /// The connection `presenter` is registered through, if any.
    static func connection(of presenter: any FilePresenter) -> PresenterConnection? {
        shared.withLock { connections in connections.values.first { $0.id(of: presenter) != nil } }
    }

    /// The id `presenter` is registered under, through whichever connection: what an access
    /// made for it names.
    static func id(of presenter: any FilePresenter) -> String? {
        shared.withLock { connections in connections.values.lazy.compactMap { $0.id(of: presenter) }.first }
    }

    static func connection(environment: [String: String] = ProcessInfo.processInfo.environment) -> PresenterConnection? {
        guard let settings = try? UbiquityContainer.currentSettings(environment: environment) else { return nil }
        return shared.withLock { connections in
            if let connection = connections[settings.socketPath] { return connection }
            let connection = PresenterConnection(socketPath: settings.socketPath)
            connections[settings.socketPath] = connection
            return connection
        }
    }
}
