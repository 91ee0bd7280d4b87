import ArgumentParser
import CommandLineSettings
import Diary
import DaemonClient
import Foundation
import Ubiquity
import UbiquitySettings

/// Where `ubq diary` finds the diary: `--file`, or `Documents/Diary.archive` of `--container`
/// (default: the default container) under the resolved root.
struct DiaryOptions: ParsableArguments {
    @OptionGroup var settings: SettingsOptions

    @Option(name: .customLong("container"), help: "The container id (default: the default container).")
    var container: String?

    @Option(help: "The diary file (default: Documents/\(DiaryDocument.fileName) of the container).")
    var file: String?

    @Option(help: "Give up after this many seconds when another program holds the diary (default: wait).")
    var timeout: Double?

    func validate() throws {
        if container != nil && file != nil { throw ValidationError("give --container or --file, not both") }
        if let timeout { try TimeoutOption.check(timeout) }
    }

    func store() throws -> DiaryStore {
        let resolved = try settings.resolve()
        let url: URL
        if let file {
            url = URL(fileURLWithPath: file)
        } else {
            let id: ContainerID
            do { id = try container.map { try ContainerID($0) } ?? .defaultContainer } catch { throw ValidationError("\(error)") }
            url = DiaryDocument.url(inDocuments: URL(fileURLWithPath: resolved.container(id).documents, isDirectory: true))
        }
        let limit = timeout.map(TimeoutOption.duration)
        let coordinator = try FileCoordinator(
            lockDirectory: URL(fileURLWithPath: resolved.runtimeDirectory + "/locks"), timeout: limit,
            relay: DaemonPresenterRelay(settings: resolved))
        return DiaryStore(url: url, coordinator: coordinator)
    }
}

/// Reads and changes the diary through `DiaryDocument`, under file coordination; no daemon.
struct DiaryStore {
    let url: URL
    let coordinator: FileCoordinator

    /// The diary as it is now, opened (an empty, closed document when there is no file yet).
    func read() async throws -> DiaryDocument {
        let document = DiaryDocument(fileURL: url, coordinator: coordinator)
        _ = try await openIfPresent(document)
        return document
    }

    /// Opens the diary (or starts a new one), applies `change` and saves. When another program
    /// saves in between (`changedOnDisk`, or a file appearing before a create), it starts
    /// again from that version (up to `attempts` times), so no one's change is lost.
    func modify<T>(attempts: Int = 10, _ change: (DiaryDocument) throws -> T) async throws -> T {
        var attempt = 1
        while true {
            let document = DiaryDocument(fileURL: url, coordinator: coordinator)
            let existed = try await openIfPresent(document)
            let result = try change(document)
            if !existed { try createFolder() }
            if try await saveAndClose(document, existed: existed, lastAttempt: attempt >= attempts) { return result }
            attempt += 1
        }
    }

    /// False when another program saved first (and this is not the last attempt).
    private func saveAndClose(_ document: DiaryDocument, existed: Bool, lastAttempt: Bool) async throws(DocumentError) -> Bool {
        do {
            try await document.save(to: url, for: existed ? .forOverwriting : .forCreating)
            try await document.close()
            return true
        } catch {
            guard !lastAttempt, error.code == .changedOnDisk || error.code == .fileExists else { throw error }
            return false
        }
    }

    private func openIfPresent(_ document: DiaryDocument) async throws(DocumentError) -> Bool {
        do {
            try await document.open()
            return true
        } catch {
            guard error.code == .fileNotFound else { throw error }
            return false
        }
    }

    private func createFolder() throws {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DiaryCommandError("cannot create the folder \(folder.path) for the diary: \(error.localizedDescription)")
        }
    }
}

/// A `ubq diary` failure a user can fix; the message says how.
struct DiaryCommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension DiaryStore {
    /// The one entry whose id starts with `prefix` (any case).
    static func entry(_ prefix: String, in document: DiaryDocument) throws -> DiaryEntry {
        let matches = document.entries(withIDPrefix: prefix)
        guard matches.count == 1 else {
            if matches.isEmpty {
                throw DiaryCommandError("no entry's id starts with '\(prefix)' in \(document.fileURL.path) (`ubq diary list` shows the ids)")
            }
            let ids = matches.prefix(5).map(\.id).joined(separator: ", ")
            throw DiaryCommandError("'\(prefix)' starts \(matches.count) ids (\(ids)): give more characters")
        }
        return matches[0]
    }

    /// Runs a command body, printing a diary, document or coordination error on standard
    /// error and exiting with status 1 (75 when waiting for another program timed out).
    static func reportingErrors(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as DocumentError {
            Output.error(error.message)
            let timedOut = (error.underlying as? CoordinationError)?.code == .timedOut
            throw ExitCode(timedOut ? 75 : 1)
        } catch let error as DiaryCommandError {
            Output.error(error.description)
            throw ExitCode(1)
        } catch let error as CoordinationError {
            Output.error(error.message)
            throw ExitCode(error.code == .timedOut ? 75 : 1)
        }
    }
}
