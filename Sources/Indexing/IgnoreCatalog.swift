import Foundation
import IgnoreRules
import Logging
import RawPaths
import UbiquitySettings

/// The ignore rules of each container: the editor and sync temporaries, the patterns of
/// the configuration file, and the container's own `.ubqignore`, re-read when it changes.
public final class IgnoreCatalog {
    public static let fileName = ".ubqignore"
    private let layout: ContainerLayout
    private var base: IgnoreRules
    private let logger: Logger
    private var cache: [ContainerID: IgnoreRules] = [:]

    public init(layout: ContainerLayout, extraPatterns: [String], logger: Logger) {
        self.layout = layout
        self.logger = logger
        do {
            base = try Self.baseRules(extraPatterns: extraPatterns)
        } catch {
            logger.error("ignoring the configuration's ignore patterns: \(error)")
            base = IgnoreRules.editorAndSyncTemporaries
        }
    }

    /// The editor and sync temporaries plus `extraPatterns` (the configuration's `ignore`).
    /// An error's line is the number of the pattern that cannot be used.
    public static func baseRules(extraPatterns: [String]) throws(IgnoreRuleError) -> IgnoreRules {
        guard !extraPatterns.isEmpty else { return .editorAndSyncTemporaries }
        return IgnoreRules.editorAndSyncTemporaries.adding(
            try IgnoreRules(parsing: extraPatterns.joined(separator: "\n"), baseDirectory: ""))
    }

    /// Uses `extraPatterns` from now on (a reloaded configuration); each container's rules
    /// are read again. Throws, changing nothing, when a pattern cannot be used.
    public func replaceExtraPatterns(_ extraPatterns: [String]) throws(IgnoreRuleError) {
        base = try Self.baseRules(extraPatterns: extraPatterns)
        cache.removeAll()
    }

    public func rules(for container: ContainerID) -> IgnoreRules {
        if let cached = cache[container] { return cached }
        let rules = load(container)
        cache[container] = rules
        return rules
    }

    public func invalidate(_ container: ContainerID) {
        cache[container] = nil
    }

    /// The container's rules: `base` and its `.ubqignore`, if it has one.
    ///
    /// One bad line costs only itself, as in git: the file's other patterns still hold.
    /// Dropping them all would sync, to every device, the files the user meant to keep
    /// here. So the file is parsed as bytes (a line that is not UTF-8, a Latin-1 name,
    /// matches the same bytes in a name), and a line that is no pattern is skipped and
    /// logged.
    private func load(_ container: ContainerID) -> IgnoreRules {
        let file = layout.folder(of: container).appending(Self.fileName)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file.readable))
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return base
        } catch {
            logger.error("\(file) cannot be read: \(error); using the default ignore rules for \(container)")
            return base
        }
        do {
            let (rules, problems) = try IgnoreRules.parsingLeniently(bytes: [UInt8](data), baseDirectory: "")
            for problem in problems { logger.error("\(file): \(problem); that line is skipped") }
            return base.adding(rules)
        } catch {
            logger.error("\(file): \(error); using the default ignore rules for \(container)")  // (the root is a valid base)
            return base
        }
    }
}
