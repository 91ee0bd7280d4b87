/// Settings given on the command line; they win over everything else. nil means "not given".
///
/// Errors about these values name them as the options `--root`, `--mirror`, `--state-dir`,
/// `--runtime-dir`, `--config`, `--container` and `--log-level`; `ubqd` and `ubq` use those
/// option names. Paths may be relative (to the current directory) or start with `~`.
public struct SettingsOverrides: Sendable, Equatable {
    public var root: String?
    public var mirror: String?
    public var stateDirectory: String?
    public var runtimeDirectory: String?
    /// A configuration file to read instead of the default one; it must exist.
    public var configFile: String?
    /// Container ids; when given, they replace the configuration file's `[[container]]` list
    /// (the default container is always kept).
    public var containers: [String]?
    public var logLevel: String?

    public init(
        root: String? = nil, mirror: String? = nil, stateDirectory: String? = nil,
        runtimeDirectory: String? = nil, configFile: String? = nil, containers: [String]? = nil,
        logLevel: String? = nil
    ) {
        self.root = root
        self.mirror = mirror
        self.stateDirectory = stateDirectory
        self.runtimeDirectory = runtimeDirectory
        self.configFile = configFile
        self.containers = containers
        self.logLevel = logLevel
    }
}

/// The settings one level (flags or environment) provides, validated, paths absolute.
struct SettingsLayer: Sendable {
    var root: String?
    var mirror: String?
    var stateDirectory: String?
    var runtimeDirectory: String?
    var configFile: (path: String, source: SettingSource)?
    var containerIDs: [ContainerID]?
    var logLevel: String?
    var deviceName: String?

    init(flags: SettingsOverrides, paths: PathResolver) throws(SettingsError) {
        func path(_ value: String?, _ name: String) throws(SettingsError) -> String? {
            guard let value else { return nil }
            return try paths.resolve(value, from: .flag(name))
        }
        root = try path(flags.root, "--root")
        mirror = try path(flags.mirror, "--mirror")
        stateDirectory = try path(flags.stateDirectory, "--state-dir")
        runtimeDirectory = try path(flags.runtimeDirectory, "--runtime-dir")
        configFile = try path(flags.configFile, "--config").map { ($0, .flag("--config")) }
        containerIDs = try flags.containers.map(Self.containerIDs)
        logLevel = try flags.logLevel.map { raw throws(SettingsError) in
            try Settings.validLogLevel(raw, from: .flag("--log-level"))
        }
    }

    init(environment: EnvironmentVariables, paths: PathResolver) throws(SettingsError) {
        func path(_ name: String) throws(SettingsError) -> String? {
            guard let value = environment[name] else { return nil }
            return try paths.resolve(value, from: .environment(name))
        }
        root = try path("UBQ_ROOT")
        mirror = try path("UBQ_MIRROR")
        stateDirectory = try path("UBQ_STATE_DIR")
        runtimeDirectory = try path("UBQ_RUNTIME_DIR")
        configFile = try path("UBQ_CONFIG").map { ($0, .environment("UBQ_CONFIG")) }
        logLevel = try environment["UBQ_LOG_LEVEL"].map { raw throws(SettingsError) in
            try Settings.validLogLevel(raw, from: .environment("UBQ_LOG_LEVEL"))
        }
        deviceName = try environment["UBQ_DEVICE_NAME"].map { raw throws(SettingsError) in
            try DeviceName.valid(raw, from: .environment("UBQ_DEVICE_NAME"))
        }
    }

    private static func containerIDs(_ raw: [String]) throws(SettingsError) -> [ContainerID] {
        var ids: [ContainerID] = []
        for identifier in raw {
            do {
                ids.append(try ContainerID(identifier))
            } catch {
                throw SettingsError(
                    code: error.code, message: "option --container: \(error.message)", key: "--container")
            }
        }
        return ids
    }
}

/// The process environment, with empty variables treated as unset.
struct EnvironmentVariables: Sendable {
    private let values: [String: String]

    init(_ values: [String: String]) {
        self.values = values.filter { !$0.value.isEmpty }
    }

    subscript(name: String) -> String? { values[name] }

    /// `HOME`, when set.
    var home: String? { values["HOME"] }

    /// An XDG base-directory variable, normalized. The XDG specification says relative
    /// values are invalid and must be ignored, so they read as unset.
    func xdg(_ name: String) -> String? {
        guard let value = values[name], value.hasPrefix("/") else { return nil }
        return PathResolver.normalize(value)
    }
}
