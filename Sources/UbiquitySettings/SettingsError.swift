/// An error found while resolving ``Settings``: a bad container id, a configuration file that
/// cannot be read or parsed, a value of the wrong type, an environment that lacks `HOME`.
///
/// The ``message`` names where the bad value came from (the file and key, the environment
/// variable or the flag) and what to do about it, so `ubqd` and `ubq` can print it as is.
public struct SettingsError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of problem this is. Extensible: switch with a `default` branch.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case invalidContainerID = "invalid container id"
            case missingConfigFile = "missing configuration file"
            case unreadableConfigFile = "unreadable configuration file"
            case syntax = "syntax error"
            case unknownKey = "unknown key"
            case wrongType = "wrong type"
            case invalidValue = "invalid value"
            case missingEnvironment = "missing environment"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        public var description: String { value.rawValue }

        /// A container id or folder name breaks the naming rules.
        public static let invalidContainerID = Code(.invalidContainerID)
        /// A configuration file named explicitly (`UBQ_CONFIG`, `--config`) does not exist.
        public static let missingConfigFile = Code(.missingConfigFile)
        /// The configuration file exists but reading it failed.
        public static let unreadableConfigFile = Code(.unreadableConfigFile)
        /// The configuration file is not valid TOML; ``SettingsError/line`` and
        /// ``SettingsError/column`` say where.
        public static let syntax = Code(.syntax)
        /// The configuration file holds a key this version does not know (often a typo).
        public static let unknownKey = Code(.unknownKey)
        /// A key holds a value of the wrong TOML type.
        public static let wrongType = Code(.wrongType)
        /// A value has the right type but is out of range or meaningless.
        public static let invalidValue = Code(.invalidValue)
        /// A default needs an environment variable (`HOME`) that is not set.
        public static let missingEnvironment = Code(.missingEnvironment)
    }

    /// What kind of problem this is.
    public var code: Code
    /// A sentence a user can act on: where the bad value is and how to fix it.
    public var message: String
    /// The configuration file involved, if any.
    public var file: String?
    /// The key, environment variable or flag involved, if any.
    public var key: String?
    /// The line in ``file`` (1-based), when known.
    public var line: Int?
    /// The column in ``file`` (1-based), when known.
    public var column: Int?

    public init(
        code: Code, message: String, file: String? = nil, key: String? = nil,
        line: Int? = nil, column: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.key = key
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN: message` when a position is known, `FILE: message` when only the
    /// file is, else the message alone: the shape compilers use, so editors can jump to it.
    public var description: String {
        guard let file else { return message }
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): \(message)"
    }
}

/// Where a setting came from, used to name it in error messages.
enum SettingSource: Sendable, Equatable {
    /// A command-line option such as `--root`.
    case flag(String)
    /// An environment variable such as `UBQ_ROOT`.
    case environment(String)
    /// A key in the configuration file at the given path.
    case file(path: String, key: String)

    /// "--root", "UBQ_ROOT" or "key 'root'": the phrase used inside messages.
    var phrase: String {
        switch self {
        case .flag(let name): "option \(name)"
        case .environment(let name): "environment variable \(name)"
        case .file(_, let key): "key '\(key)'"
        }
    }

    var file: String? {
        if case .file(let path, _) = self { return path }
        return nil
    }

    var key: String {
        switch self {
        case .flag(let name), .environment(let name): name
        case .file(_, let key): key
        }
    }

    /// An error about a value from this source, carrying its file and key.
    func error(_ code: SettingsError.Code, _ message: String, line: Int? = nil) -> SettingsError {
        SettingsError(code: code, message: message, file: file, key: key, line: line)
    }
}
