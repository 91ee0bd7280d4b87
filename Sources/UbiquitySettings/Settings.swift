/// Where one Ubiquity instance keeps its files, and how it behaves.
///
/// `ubqd` and `ubq` both build it with ``resolve(overrides:environment:currentDirectory:userID:readFile:)``,
/// so one environment points both at one instance. Each setting comes from the first of:
///
/// 1. a flag (``SettingsOverrides``),
/// 2. the environment: `UBQ_ROOT`, `UBQ_MIRROR`, `UBQ_STATE_DIR`, `UBQ_RUNTIME_DIR`,
///    `UBQ_LOG_LEVEL`, `UBQ_DEVICE_NAME` (`UBQ_CONFIG` names the configuration file),
/// 3. the configuration file: `--config`, else `UBQ_CONFIG`, else
///    `$XDG_CONFIG_HOME/ubiquity/config.toml` (`XDG_CONFIG_HOME` defaults to `~/.config`);
///    see `docs/config.sample.toml`,
/// 4. the defaults documented on each property.
///
/// All paths are absolute and normalized. Containers accumulate rather than override: the
/// default container always exists, flags replace the file's list, and
/// ``containers(discovered:)`` adds every container folder found under the root.
public struct Settings: Sendable, Equatable {
    /// The folder holding all containers. Default `~/Ubiquity`.
    public var root: String
    /// The shared folder devices sync through. Default none: no sync, local indexing only.
    public var mirror: String?
    /// The device's private state (the index, the sync journal). Default
    /// `$XDG_STATE_HOME/ubiquity`, `XDG_STATE_HOME` defaulting to `~/.local/state`.
    public var stateDirectory: String
    /// The folder for the socket. Default `$XDG_RUNTIME_DIR/ubiquity`; when `XDG_RUNTIME_DIR`
    /// is unset, `/tmp/ubiquity-UID`. `/tmp` is shared, so the daemon must create that folder
    /// with mode 0700 and refuse to use it when it already exists owned by another user or
    /// with wider permissions (another user could otherwise plant a socket there).
    public var runtimeDirectory: String
    /// The configuration file actually read, if any.
    public var configFile: String?
    /// The configured containers, sorted; always includes ``ContainerID/defaultContainer``.
    public var containerIDs: [ContainerID]
    /// The least severe log level written: one of ``logLevels``. Default `info`.
    public var logLevel: String
    /// How long a changed file must stay quiet before it is indexed or uploaded, in
    /// milliseconds (editors save through several writes and renames). Default 50.
    public var settleMilliseconds: Int
    /// Extra gitignore-syntax patterns from the configuration file, added to the built-in
    /// editor and sync temp-file patterns and to each `.ubqignore`. Default none.
    public var ignorePatterns: [String]
    /// The pace of sync and the mass-deletion guard (the `[sync]` table). Defaults in
    /// ``SyncSettings``.
    public var sync: SyncSettings
    /// The name other devices show this one by (``DeviceName``). Default none: the device
    /// keeps the last name it had, at first its host name.
    public var deviceName: String?

    /// The log levels, least severe first (the names swift-log uses).
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
    /// ``logLevel`` when nothing sets it.
    public static let defaultLogLevel = "info"
    /// ``settleMilliseconds`` when nothing sets it.
    public static let defaultSettleMilliseconds = 50
    /// The largest accepted ``settleMilliseconds``: a minute.
    public static let maximumSettleMilliseconds = 60_000

    /// Settings given in full, for tests and embedders; ``resolve(overrides:environment:currentDirectory:userID:readFile:)``
    /// is the usual way in. The default container is added to `containerIDs` if missing.
    public init(
        root: String,
        mirror: String? = nil,
        stateDirectory: String,
        runtimeDirectory: String,
        configFile: String? = nil,
        containerIDs: [ContainerID] = [],
        logLevel: String = Settings.defaultLogLevel,
        settleMilliseconds: Int = Settings.defaultSettleMilliseconds,
        ignorePatterns: [String] = [],
        sync: SyncSettings = SyncSettings(),
        deviceName: String? = nil
    ) {
        self.root = root
        self.mirror = mirror
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
        self.configFile = configFile
        self.containerIDs = Set(containerIDs + [.defaultContainer]).sorted()
        self.logLevel = logLevel
        self.settleMilliseconds = settleMilliseconds
        self.ignorePatterns = ignorePatterns
        self.sync = sync
        self.deviceName = deviceName
    }

    /// The daemon's Unix socket: ``runtimeDirectory`` + `/ubqd.sock`.
    public var socketPath: String { runtimeDirectory + "/ubqd.sock" }

    /// The metadata index database: ``stateDirectory`` + `/index.sqlite`.
    public var indexPath: String { stateDirectory + "/index.sqlite" }

    /// The container `id` under ``root``, whether or not its folder exists yet.
    public func container(_ id: ContainerID) -> Container {
        Container(id: id, root: root)
    }

    /// The configured containers plus every container folder found under ``root``, sorted by
    /// id, each once. `folderNames` are the names of the root's entries (not paths); names
    /// that are not container folders (`Documents`, `.cache`, `notes.txt`) are skipped.
    public func containers(discovered folderNames: [String]) -> [Container] {
        let discovered = folderNames.compactMap(ContainerID.init(folderName:))
        return Set(containerIDs + discovered).sorted().map(container)
    }
}

extension Settings {
    /// `raw` if it is one of ``logLevels`` (any case), lowercased; else an error naming `source`.
    static func validLogLevel(_ raw: String, from source: SettingSource) throws(SettingsError) -> String {
        let level = raw.lowercased()
        guard logLevels.contains(level) else {
            throw source.error(
                .invalidValue,
                "\(source.phrase) is '\(raw)', not a log level; use one of "
                    + logLevels.joined(separator: ", "))
        }
        return level
    }

    /// `value` if it is within 0...``maximumSettleMilliseconds``; else an error naming `source`.
    static func validSettle(_ value: Int, from source: SettingSource) throws(SettingsError) -> Int {
        guard (0...maximumSettleMilliseconds).contains(value) else {
            throw source.error(
                .invalidValue,
                "\(source.phrase) is \(value); use a number of milliseconds from 0 to "
                    + "\(maximumSettleMilliseconds), e.g. \(defaultSettleMilliseconds)")
        }
        return value
    }
}
