import Logging
import Synchronization

/// The daemon's log level, read by every log handler on each call, so that a reloaded
/// configuration (SIGHUP) changes the level of every logger at once.
public final class LogLevelControl: Sendable {
    private let index: Atomic<Int>
    private static let levels = Logger.Level.allCases

    public init(_ level: Logger.Level) {
        index = Atomic(Self.levels.firstIndex(of: level) ?? 0)
    }

    /// The least severe level written.
    public var level: Logger.Level {
        get { Self.levels[index.load(ordering: .relaxed)] }
        set { index.store(Self.levels.firstIndex(of: newValue) ?? 0, ordering: .relaxed) }
    }
}

extension Logger.Level {
    /// The level named by a validated setting (`Settings.logLevels`); `info` for anything else.
    public init(setting: String) {
        self = Logger.Level(rawValue: setting.lowercased()) ?? .info
    }
}
