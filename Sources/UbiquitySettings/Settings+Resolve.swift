#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Settings {
    /// Resolves every setting: flags, then environment, then configuration file, then defaults.
    ///
    /// - Parameters:
    ///   - overrides: what the command line gave.
    ///   - environment: the process environment (`ProcessInfo.processInfo.environment`).
    ///     Empty variables count as unset; relative `XDG_*` values are ignored, as the XDG
    ///     specification says.
    ///   - currentDirectory: the folder relative flags and environment paths are taken
    ///     against; nil uses `PWD` from `environment`. A relative path with neither is an error.
    ///   - userID: names the runtime folder when `XDG_RUNTIME_DIR` is unset.
    ///   - readFile: the contents of the file at a path, or nil when it does not exist.
    ///     Injected so that resolution does no I/O of its own.
    /// - Throws: a ``SettingsError`` naming the file, key, variable or option and the fix.
    public static func resolve(
        overrides: SettingsOverrides,
        environment: [String: String],
        currentDirectory: String? = nil,
        userID: UInt32 = getuid(),
        readFile: (String) throws -> String?
    ) throws(SettingsError) -> Settings {
        let variables = EnvironmentVariables(environment)
        let cwd = currentDirectory ?? variables["PWD"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let paths = PathResolver(home: variables.home, base: cwd.map(PathResolver.normalize))
        let flags = try SettingsLayer(flags: overrides, paths: paths)
        let env = try SettingsLayer(environment: variables, paths: paths)
        let defaults = XDGDefaults(environment: variables, userID: userID)
        let file = try loadConfigFile(
            explicit: flags.configFile ?? env.configFile, fallback: defaults.configFile,
            home: variables.home, readFile: readFile)
        let settings = try merge(flags: flags, env: env, file: file, defaults: defaults)
        try settings.checkMirror()
        return settings
    }

    private static func merge(
        flags: SettingsLayer, env: SettingsLayer, file: ConfigFile?, defaults: XDGDefaults
    ) throws(SettingsError) -> Settings {
        Settings(
            root: try first(flags.root, env.root, file?.root, else: defaults.root),
            mirror: flags.mirror ?? env.mirror ?? file?.mirror,
            stateDirectory: try first(
                flags.stateDirectory, env.stateDirectory, file?.stateDirectory, else: defaults.stateDirectory),
            runtimeDirectory: flags.runtimeDirectory ?? env.runtimeDirectory ?? file?.runtimeDirectory
                ?? defaults.runtimeDirectory,
            configFile: file?.path,
            containerIDs: flags.containerIDs ?? file?.containerIDs ?? [],
            logLevel: flags.logLevel ?? env.logLevel ?? file?.logLevel ?? defaultLogLevel,
            settleMilliseconds: file?.settleMilliseconds ?? defaultSettleMilliseconds,
            ignorePatterns: file?.ignorePatterns ?? [],
            sync: file?.sync ?? SyncSettings(),
            deviceName: env.deviceName ?? file?.deviceName)
    }

    /// The first value given, else `fallback()` (`??` would lose the error type).
    private static func first(
        _ values: String?..., else fallback: () throws(SettingsError) -> String
    ) throws(SettingsError) -> String {
        if let value = values.lazy.compactMap({ $0 }).first { return value }
        return try fallback()
    }

    /// A mirror inside the root (or the root inside the mirror) would sync containers into
    /// themselves.
    private func checkMirror() throws(SettingsError) {
        guard let mirror else { return }
        guard !PathResolver.isSameOrInside(mirror, root), !PathResolver.isSameOrInside(root, mirror) else {
            throw SettingsError(
                code: .invalidValue,
                message: "the mirror \(mirror) and the root \(root) overlap; the mirror must be a "
                    + "folder outside the root (and the root outside the mirror), so move one of them",
                key: "mirror")
        }
    }

    /// Reads and parses the configuration file: the explicit one, which must exist, or else the
    /// default one, which may be missing.
    private static func loadConfigFile(
        explicit: (path: String, source: SettingSource)?, fallback: String?, home: String?,
        readFile: (String) throws -> String?
    ) throws(SettingsError) -> ConfigFile? {
        if let (path, source) = explicit {
            guard let text = try read(path, readFile) else {
                throw SettingsError(
                    code: .missingConfigFile,
                    message: "the configuration file named by \(source.phrase) does not exist; "
                        + "create it (see docs/config.sample.toml) or name another file",
                    file: path, key: source.key)
            }
            return try ConfigFile.parse(text, path: path, home: home)
        }
        guard let fallback, let text = try read(fallback, readFile) else { return nil }
        return try ConfigFile.parse(text, path: fallback, home: home)
    }

    private static func read(_ path: String, _ readFile: (String) throws -> String?) throws(SettingsError) -> String? {
        do {
            return try readFile(path)
        } catch {
            throw SettingsError(
                code: .unreadableConfigFile,
                message: "cannot read the configuration file (\(error)); check that it is a "
                    + "readable file",
                file: path)
        }
    }
}

/// The XDG-based defaults, computed only when no other level gives a value (so a missing
/// `HOME` is an error only when something actually needs it).
struct XDGDefaults: Sendable {
    var environment: EnvironmentVariables
    var userID: UInt32

    private var home: String? { environment.home.map(PathResolver.normalize) }

    /// `~/Ubiquity`.
    func root() throws(SettingsError) -> String {
        try requireHome(for: "the root", fix: "UBQ_ROOT or --root") + "/Ubiquity"
    }

    /// `$XDG_STATE_HOME/ubiquity`, else `~/.local/state/ubiquity`.
    func stateDirectory() throws(SettingsError) -> String {
        if let state = environment.xdg("XDG_STATE_HOME") { return state + "/ubiquity" }
        return try requireHome(for: "the state folder", fix: "XDG_STATE_HOME, UBQ_STATE_DIR or --state-dir")
            + "/.local/state/ubiquity"
    }

    /// `$XDG_RUNTIME_DIR/ubiquity`, else `/tmp/ubiquity-UID`.
    var runtimeDirectory: String {
        if let runtime = environment.xdg("XDG_RUNTIME_DIR") { return runtime + "/ubiquity" }
        return "/tmp/ubiquity-\(userID)"
    }

    /// `$XDG_CONFIG_HOME/ubiquity/config.toml`, else `~/.config/ubiquity/config.toml`; nil
    /// when neither variable is set (then no file is read).
    var configFile: String? {
        guard let config = environment.xdg("XDG_CONFIG_HOME") ?? home.map({ $0 + "/.config" }) else {
            return nil
        }
        return config + "/ubiquity/config.toml"
    }

    private func requireHome(for what: String, fix: String) throws(SettingsError) -> String {
        guard let home, home.hasPrefix("/") else {
            throw SettingsError(
                code: .missingEnvironment,
                message: "HOME is not set to an absolute path, so \(what) has no default; "
                    + "set HOME, or set \(fix)",
                key: "HOME")
        }
        return home
    }
}
