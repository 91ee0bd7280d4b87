import Coordination
import Foundation

extension FileCoordinator? {
    /// Runs `body` holding a coordinated write claim on `absolute` (apps presenting the
    /// document save or let go first), or directly when there is no coordinator (tests).
    /// Sync never waits more than 30 s for a claim: the step is retried next pass.
    func write<T>(_ absolute: String, _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        return try coordinator.coordinate(writingItemAt: URL(fileURLWithPath: absolute), timeout: .seconds(30)) { _ in try body() }
    }

    /// Runs `body` holding a coordinated read claim (`.forUploading`) on `absolute`: a writer
    /// is never read halfway, and presenters save first. Same 30 s limit as writes.
    func read<T>(_ absolute: String, _ body: () throws -> T) throws -> T {
        guard let coordinator = self else { return try body() }
        return try coordinator.coordinate(readingItemAt: URL(fileURLWithPath: absolute), options: .forUploading, timeout: .seconds(30)) { _ in
            try body()
        }
    }
}
