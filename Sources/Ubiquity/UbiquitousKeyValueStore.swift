import DaemonClient
import Foundation
import KeyValueStore
import KeyedArchive
import Synchronization

/// NSUbiquitousKeyValueStore: a few property-list values (preferences, where the user got
/// to) that every device of the container shares, up to 1,024 keys and 1 MiB.
///
/// The store is the file `KeyValueStore.plist` at the top of the container folder, which
/// ubqd syncs like any other; when two devices change it at once, ubqd merges the two key by
/// key, the later change of each key winning (no conflict version). Values are read and
/// set in memory; `synchronize()` writes this store's changes to the file under a
/// coordinated write, merged with what other processes and devices wrote there, and takes
/// in their changes. Call it after setting values (NSUbiquitousKeyValueStore writes on its
/// own schedule; this one only when asked), and at start (`open` does).
///
/// `changes()` streams the changes that came from elsewhere (NSUbiquitousKeyValueStore's
/// `didChangeExternallyNotification`), with their reason and keys: the store presents its
/// file (`FilePresenter`), so a change synced from another device or saved by another
/// process arrives without a call to `synchronize()`.
public final class UbiquitousKeyValueStore: FilePresenter, Sendable {
    /// Why values changed (NSUbiquitousKeyValueStoreChangeReasons).
    public enum ChangeReason: Sendable, Equatable {
        /// Another device or process changed them.
        case serverChange
        /// The first values arrived from another device, in a store that had none.
        case initialSyncChange
        /// The store holds more than `KeyValueLimits` allows: two devices' changes merged
        /// past it. Nothing was dropped; remove keys to go back under it.
        case quotaViolationChange
        /// Never sent here (there are no accounts); kept for NSUbiquitousKeyValueStore's list.
        case accountChange
    }

    /// Values changed elsewhere: the notification's reason and changed keys.
    public struct Change: Sendable, Equatable {
        public var reason: ChangeReason
        public var keys: [String]
    }

    public let fileURL: URL
    public let presentedItemOperationQueue: OperationQueue
    private let coordinator: FileCoordinator
    /// Names the ubqd the store presents its file to (`changes()`), as `UbiquityContainer`
    /// resolves it.
    private let environment: [String: String]
    private let writer: String
    private let limits: KeyValueLimits
    private let state = Mutex(State())

    private struct State {
        var snapshot = KeyValueSnapshot()
        /// Whether a file has been read: values found later in a store that had none are
        /// the initial sync.
        var foundFile = false
        var listeners: [UUID: AsyncStream<Change>.Continuation] = [:]
        var presenting = false
    }

    /// The store of file `fileURL`, empty until `synchronize()` reads it. `writer` names
    /// this machine in the file (it orders changes made in the same millisecond).
    /// `environment` names the ubqd that tells the store of changes (`changes()`).
    public init(
        fileURL: URL, coordinator: FileCoordinator, writer: String = ProcessInfo.processInfo.hostName, limits: KeyValueLimits = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.fileURL = fileURL.standardizedFileURL
        self.coordinator = coordinator
        self.environment = environment
        self.writer = writer
        self.limits = limits
        presentedItemOperationQueue = OperationQueue()
        presentedItemOperationQueue.maxConcurrentOperationCount = 1
    }

    /// The store of the container `identifier` (nil: the default one), read from its file.
    public static func open(
        container identifier: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> UbiquitousKeyValueStore {
        guard let folder = try UbiquityContainer.url(forIdentifier: identifier, environment: environment) else {
            throw KeyValueStoreError(
                .fileAccess, "the container \(identifier ?? "iCloud.org.ubiquity.Default") does not exist yet: ubqd makes the configured containers when it starts")
        }
        let store = UbiquitousKeyValueStore(
            fileURL: folder.appendingPathComponent(KeyValueSnapshot.fileName), coordinator: try UbiquityContainer.fileCoordinator(environment: environment),
            environment: environment)
        try await store.synchronize()
        return store
    }

    deinit {
        state.withLock { state in state.listeners.values.forEach { $0.finish() } }
    }

    public var presentedItemURL: URL? { fileURL }

    public func presentedItemDidChange() {
        Task { try? await self.synchronize() }  // a failure is the next call's to report
    }
}

// MARK: Values

extension UbiquitousKeyValueStore {
    public func object(forKey key: String) -> PlistValue? { state.withLock { $0.snapshot.value(forKey: key) } }

    public func string(forKey key: String) -> String? {
        guard case .string(let text)? = object(forKey: key) else { return nil }
        return text
    }

    /// The integer for `key`, 0 if it holds none (as NSUbiquitousKeyValueStore).
    public func longLong(forKey key: String) -> Int64 {
        switch object(forKey: key) {
        case .integer(let number)?: number
        case .unsignedInteger(let number)?: Int64(clamping: number)
        case .real(let number)?: Int64(exactly: number.rounded(.towardZero)) ?? 0
        case .bool(let flag)?: flag ? 1 : 0
        default: 0
        }
    }

    /// The number for `key`, 0 if it holds none.
    public func double(forKey key: String) -> Double {
        switch object(forKey: key) {
        case .real(let number)?: number
        case .integer(let number)?: Double(number)
        case .unsignedInteger(let number)?: Double(number)
        case .bool(let flag)?: flag ? 1 : 0
        default: 0
        }
    }

    /// The boolean for `key`, false if it holds none (a number is true unless 0).
    public func bool(forKey key: String) -> Bool {
        switch object(forKey: key) {
        case .bool(let flag)?: flag
        case .integer(let number)?: number != 0
        case .unsignedInteger(let number)?: number != 0
        case .real(let number)?: number != 0
        default: false
        }
    }

    public func data(forKey key: String) -> Data? {
        guard case .data(let bytes)? = object(forKey: key) else { return nil }
        return Data(bytes)
    }

    public func date(forKey key: String) -> Date? {
        guard case .date(let seconds)? = object(forKey: key) else { return nil }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    public func array(forKey key: String) -> [PlistValue]? {
        guard case .array(let items)? = object(forKey: key) else { return nil }
        return items
    }

    public func dictionary(forKey key: String) -> [String: PlistValue]? {
        guard case .dictionary(let entries)? = object(forKey: key) else { return nil }
        var dictionary: [String: PlistValue] = [:]
        for entry in entries { if case .string(let name) = entry.key { dictionary[name] = entry.value } }
        return dictionary
    }

    /// Every key that holds a value, with it.
    public var dictionaryRepresentation: [String: PlistValue] { state.withLock { $0.snapshot.values } }

    /// Sets `key` in memory (`synchronize()` writes it). Throws, changing nothing, for a key
    /// over 64 bytes, a value that is no property-list value, or past the store's limits.
    public func set(_ value: PlistValue, forKey key: String) throws(KeyValueStoreError) {
        try change(value, forKey: key)
    }

    public func set(_ value: String, forKey key: String) throws(KeyValueStoreError) { try set(.string(value), forKey: key) }
    public func set(_ value: Int64, forKey key: String) throws(KeyValueStoreError) { try set(.integer(value), forKey: key) }
    public func set(_ value: Double, forKey key: String) throws(KeyValueStoreError) { try set(.real(value), forKey: key) }
    public func set(_ value: Bool, forKey key: String) throws(KeyValueStoreError) { try set(.bool(value), forKey: key) }
    public func set(_ value: Data, forKey key: String) throws(KeyValueStoreError) { try set(.data([UInt8](value)), forKey: key) }
    public func set(_ value: Date, forKey key: String) throws(KeyValueStoreError) {
        try set(.date(value.timeIntervalSinceReferenceDate), forKey: key)
    }

    /// Removes `key` (in memory; `synchronize()` writes the removal, which then reaches
    /// every device). A key the store cannot hold is not there to remove.
    public func removeObject(forKey key: String) {
        guard object(forKey: key) != nil else { return }
        try? change(nil, forKey: key)
    }

    private func change(_ value: PlistValue?, forKey key: String) throws(KeyValueStoreError) {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try state.withLock { (state) throws(KeyValueStoreError) in
            try state.snapshot.set(value, forKey: key, writer: writer, now: now, limits: limits)
        }
    }
}

// MARK: The file

extension UbiquitousKeyValueStore {
    /// Merges this store with its file under a coordinated write: this store's changes go
    /// to the file, and the changes other processes and devices wrote there come in (the
    /// later change of each key wins). Listeners hear of the keys that changed. Throws,
    /// writing nothing, when the file cannot be read as a store (it is left as it is).
    public func synchronize(isolation: isolated (any Actor)? = #isolation) async throws(KeyValueStoreError) {
        let path = fileURL.path
        let found: KeyValueSnapshot?
        do {
            // Made for this store, which presents the file: it must not hear of its own merge.
            found = try await DaemonPresenterRelay.$actingPresenter.withValue(SharedPresenterConnection.id(of: self)) {
                try await coordinator.coordinate(writingItemAt: fileURL, options: .forMerging, byAsyncAccessor: { _ throws -> KeyValueSnapshot? in
                    let disk = try Self.read(path)
                    let merged = (disk ?? KeyValueSnapshot()).merging(self.state.withLock { $0.snapshot })
                    if merged != disk, !(disk == nil && merged.entries.isEmpty) {
                        do throws(DocumentError) {
                            try AtomicFile().replace(path, with: Data(merged.encoded()))
                        } catch {
                            throw KeyValueStoreError(.fileAccess, error.message)
                        }
                    }
                    return disk
                })
            }
        } catch let error as KeyValueStoreError {
            throw error
        } catch {
            throw KeyValueStoreError(.fileAccess, "synchronizing \(path): \(error)")
        }
        if let found { take(found) }
    }

    /// Takes in what the file held, and tells listeners what it changed here.
    private func take(_ disk: KeyValueSnapshot) {
        let (changes, listeners) = state.withLock { state in
            let before = state.snapshot
            state.snapshot = before.merging(disk)
            var changes: [Change] = []
            let keys = state.snapshot.keysChanged(since: before)
            if !keys.isEmpty {
                changes.append(Change(reason: state.foundFile || !before.values.isEmpty ? .serverChange : .initialSyncChange, keys: keys))
            }
            if before.excess(of: limits) == nil, state.snapshot.excess(of: limits) != nil {
                changes.append(Change(reason: .quotaViolationChange, keys: []))
            }
            state.foundFile = true
            return (changes, Array(state.listeners.values))
        }
        for change in changes { for listener in listeners { listener.yield(change) } }
    }

    /// The store in `path`, nil where there is no file yet.
    private static func read(_ path: String) throws(KeyValueStoreError) -> KeyValueSnapshot? {
        let bytes: Data
        do {
            bytes = try AtomicFile.read(path).data
        } catch {
            if error.code == .fileNotFound { return nil }
            throw KeyValueStoreError(.fileAccess, error.message)
        }
        return try KeyValueSnapshot.decode([UInt8](bytes), file: path)
    }
}

// MARK: Listening

extension UbiquitousKeyValueStore {
    /// The changes made elsewhere from now on, until the stream is dropped or the store
    /// goes. The first call makes the store present its file (through ubqd: without it,
    /// only `synchronize()` brings changes in).
    public func changes() async -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let id = UUID()
        let first = state.withLock { state in
            state.listeners[id] = continuation
            defer { state.presenting = true }
            return !state.presenting
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        if first { await FileCoordinator.addFilePresenter(self, environment: environment) }
        return stream
    }

    /// Stops presenting the file and ends every stream `changes()` gave.
    public func stopListening() async {
        let listeners = state.withLock { state in
            defer {
                state.listeners = [:]
                state.presenting = false
            }
            return Array(state.listeners.values)
        }
        await FileCoordinator.removeFilePresenter(self)
        for listener in listeners { listener.finish() }
    }
}
