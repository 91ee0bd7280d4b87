import Coordination
import Foundation

extension FileCoordinator? {
    /// Runs `body` holding a coordinated write claim on `absolute` (apps presenting the
    /// document save or let go first), or directly when there is no coordinator (tests).
    /// Sync waits for a claim as long as the coordinator's own timeout, 30 s when it has
    /// none (`claimTimeout`): the step is retried next pass.
    /// `options`: `.forDeleting` for a deletion, which asks the item's presenters to
    /// accommodate it before it happens (an app closes the document) rather than telling
    /// them after.
    func write<T>(_ absolute: String, options: FileCoordinator.WritingOptions = [], _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        return try coordinator.coordinate(writingItemAt: claimURL(absolute), options: options, timeout: coordinator.claimTimeout) { _ in try body() }
    }

    /// `write` of several items under one claim (`Executor.install(_:)`).
    func write<T>(_ absolutes: [String], _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        return try coordinator.coordinate(writingItemsAt: absolutes.map(claimURL), timeout: coordinator.claimTimeout) { _ in try body() }
    }

    /// Runs `body` holding a coordinated read claim (`.forUploading`) on `absolute`:
    /// presenters save first, and a claim held now is waited for (`claimTimeout`, like writes).
    /// It creates no lock file (`withoutCreatingLockFiles`): a first upload of 100,000 files
    /// must not leave as many behind, and the upload checks the content's hash anyway.
    func read<T>(_ absolute: String, _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        return try coordinator.coordinate(readingItemAt: claimURL(absolute), options: uploadReading, timeout: coordinator.claimTimeout) { _ in
            try body()
        }
    }

    /// `read` of several files under one claim (`Executor.stage(_:)`).
    func read<T>(_ absolutes: [String], _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        let urls = absolutes.map(claimURL)
        return try coordinator.coordinate(readingItemsAt: urls, options: uploadReading, timeout: coordinator.claimTimeout) { _ in try body() }
    }

    private var uploadReading: FileCoordinator.ReadingOptions { [.forUploading, .withoutCreatingLockFiles] }
}

extension FileCoordinator {
    /// How long sync waits for a claim: a coordinator made for sync may say (tests do),
    /// else 30 s. Never forever: one file an app holds must not stop the whole pass.
    var claimTimeout: Duration { defaultTimeout ?? .seconds(30) }
}

/// The URL a claim on `absolute` names. `URL(fileURLWithPath:)` would stat the path to
/// tell a folder (in a first sync's staging, 9% of the time, about what the claims'
/// lock-file checks cost); a claim needs only the path.
func claimURL(_ absolute: String) -> URL { URL(filePath: absolute, directoryHint: .inferFromPath) }
