import APIModel
import DaemonClient
import Foundation

/// One version of an item, as the mirror keeps it for every device: NSFileVersion's model,
/// answered by `ubqd`.
///
/// Two devices that change an item at once make a conflict: one version becomes current
/// on every device, the other stays as an unresolved conflict version until an app (or
/// `ubq resolve`) marks it resolved. An app resolves as on Apple's systems: it reads the
/// conflict versions (`url`), puts the content it wants in place (`replaceItem()`, or a
/// save of its own merge), then marks each conflict version resolved (`markResolved()`).
/// Replaced and deleted versions stay listed (`otherVersionsOfItem`) for the retention
/// the settings give (`history_retention_days`).
///
/// A version's values are read when it is fetched; fetch again to see later changes.
public struct FileVersion: Sendable, Hashable, CustomStringConvertible {
    /// The item this is a version of.
    public let itemURL: URL
    /// `DEVICE:SEQ`: the version's id on every device (what `ubq versions` lists).
    public let persistentIdentifier: String
    /// Where to read the version's content: the item itself for the current version; for
    /// another, a read-only file in the mirror's store. Nil for a version with no content
    /// (a deletion, a folder, a symbolic link).
    public let url: URL?
    /// The file's modification date in this version, as the device that made it had it;
    /// else (another kind, or a writer that leaves the date out) when the change was made,
    /// by that device's clock.
    public let modificationDate: Date?
    /// The name of the device that made the change.
    public let localizedNameOfSavingComputer: String
    /// An unresolved conflict version: it lost to the current version, and holds other content.
    public let isConflict: Bool
    /// The item's current version, the one every device holds.
    public let isCurrent: Bool
    /// The version's size in bytes, for a file.
    public let size: Int64?
    let item: VersionedItem
    let socketPath: String

    /// Whether the version's content can be read here now (its file in the mirror may be
    /// gone: the mirror is not mounted, or the version has expired).
    public var hasLocalContents: Bool {
        url.map { FileManager.default.isReadableFile(atPath: $0.path) } ?? false
    }

    public var description: String {
        "\(persistentIdentifier) of \(item.path) from \(localizedNameOfSavingComputer)\(isCurrent ? ", current" : "")\(isConflict ? ", conflict" : "")"
    }

    public static func == (left: FileVersion, right: FileVersion) -> Bool {
        left.persistentIdentifier == right.persistentIdentifier && left.item == right.item && left.isConflict == right.isConflict
            && left.isCurrent == right.isCurrent
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(persistentIdentifier)
        hasher.combine(item.container)
        hasher.combine(item.path)
    }
}

extension FileVersion {
    /// The current version of the item at `url`; nil if it has none (it was never synced,
    /// or sync is off).
    public static func currentVersionOfItem(
        at url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> FileVersion? {
        try await versionsOfItem(at: url, environment: environment).first { $0.isCurrent }
    }

    /// The item's versions other than the current one that hold content, newest first:
    /// its unresolved conflict versions and the versions it replaced.
    public static func otherVersionsOfItem(
        at url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> [FileVersion] {
        try await versionsOfItem(at: url, environment: environment).filter { !$0.isCurrent && $0.url != nil }
    }

    /// The item's unresolved conflict versions, newest first; empty when it has none.
    public static func unresolvedConflictVersionsOfItem(
        at url: URL, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration? = nil
    ) async throws -> [FileVersion] {
        try await versionsOfItem(at: url, environment: environment, timeout: timeout).filter(\.isConflict)
    }

    /// The version of the item at `url` with this `persistentIdentifier`, if it is still kept.
    public static func version(
        itemAt url: URL, forPersistentIdentifier identifier: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> FileVersion? {
        try await versionsOfItem(at: url, environment: environment).first { $0.persistentIdentifier == identifier }
    }

    /// Every version of the item kept, newest first, deletions included. Empty for a path
    /// with no versions, and when sync is off (no mirror). `timeout`: give up after it (a
    /// document must not wait for a stopped ubqd); nil waits.
    public static func versionsOfItem(
        at url: URL, environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration? = nil
    ) async throws -> [FileVersion] {
        let (item, client) = try locate(url, environment: environment)
        let versions: [VersionInfo]
        do {
            if let timeout {
                versions = try await client.post(Route.versions, body: item, as: [VersionInfo].self, timeout: timeout)
            } else {
                versions = try await client.post(Route.versions, body: item, as: [VersionInfo].self)
            }
        } catch {
            switch (error.status, error.apiError?.error) {
            case (404, "sync"): return []  // no version of that path (or of that container) is known
            case (409, "no-mirror"): return []  // sync is off: nothing keeps versions
            default: throw error
            }
        }
        return versions.map { FileVersion($0, of: item, at: url, socketPath: client.socketPath) }
    }

    /// The item at `url` as the daemon's routes name it, and the daemon the environment names.
    private static func locate(_ url: URL, environment: [String: String]) throws -> (VersionedItem, DaemonClient) {
        let settings = try UbiquityContainer.currentSettings(environment: environment)
        return (try VersionedItem(absolutePath: url.path, settings: settings), DaemonClient(socketPath: settings.socketPath))
    }

    /// Puts this version's content in the item's place, as a new change that syncs to every
    /// device (NSFileVersion's `replaceItem(at:options:)`, for the item it is a version of).
    /// A conflict version stays one until marked resolved. Throws, changing nothing, when
    /// the item has changes not synced yet. Returns the item's URL.
    /// A deleted folder's version brings the folder back with what went with it; an item
    /// below it that could not come back makes this throw, naming each one (the others
    /// are back).
    @discardableResult
    public func replaceItem() async throws -> URL {
        let request = RestoreRequest(item: item, version: persistentIdentifier)
        let result = try await DaemonClient(socketPath: socketPath).post(Route.restore, body: request, as: RestoreResult.self)
        if let problems = result.problems, !problems.isEmpty {
            throw DaemonClientError(.rejected, "not restored: " + problems.joined(separator: "; "))
        }
        return itemURL
    }

    /// Marks this conflict version resolved on every device (NSFileVersion's `isResolved =
    /// true`): the current version stays, and so do the item's other conflict versions.
    /// The file is left as it is where this device holds the current version already.
    public func markResolved() async throws {
        let request = ResolveRequest(item: item, keep: "current", only: [persistentIdentifier])
        _ = try await DaemonClient(socketPath: socketPath).post(Route.resolve, body: request, as: [String: Bool].self)
    }

    /// Removes every version of the item but the current one, on every device
    /// (NSFileVersion's `removeOtherVersionsOfItem(at:)`): unresolved conflict versions are
    /// resolved, and replaced versions leave the history, whatever its retention. The file
    /// is left as it is where this device holds the current version already.
    public static func removeOtherVersionsOfItem(
        at url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws {
        let (item, client) = try locate(url, environment: environment)
        _ = try await client.post(Route.resolve, body: ResolveRequest(item: item, keep: "current", removeOtherVersions: true), as: [String: Bool].self)
    }

    init(_ info: VersionInfo, of item: VersionedItem, at itemURL: URL, socketPath: String) {
        self.itemURL = itemURL
        self.item = item
        self.socketPath = socketPath
        persistentIdentifier = info.id
        isCurrent = info.current
        isConflict = info.conflict
        localizedNameOfSavingComputer = info.deviceName
        size = info.size
        modificationDate = Self.date(info.modified ?? info.date)
        if info.current {
            url = info.kind == "deleted" ? nil : itemURL
        } else {
            url = info.contentPath.map { URL(fileURLWithPath: $0) }
        }
    }

    /// An API date, `2026-11-22T08:55:19.123456Z`, to the microsecond: the formatter reads
    /// fractions of a second only to the millisecond, so it is given the whole seconds and
    /// the fraction is added.
    static func date(_ text: String) -> Date? {
        guard text.hasSuffix("Z") else { return nil }
        let parts = text.dropLast().split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = dateFormatter.date(from: parts[0] + "Z") else { return nil }
        guard parts.count == 2 else { return whole }
        let digits = parts[1]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Double("0." + digits) else { return nil }
        return whole.addingTimeInterval(fraction)
    }

    /// Whole seconds, UTC. The formatter is documented as safe to use from several threads.
    nonisolated(unsafe) private static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
}
