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
    private let base: IgnoreRules
    private let logger: Logger
    private var cache: [ContainerID: IgnoreRules] = [:]

    public init(layout: ContainerLayout, extraPatterns: [String], logger: Logger) {
        self.layout = layout
        self.logger = logger
        var base = IgnoreRules.editorAndSyncTemporaries
        if !extraPatterns.isEmpty {
            do {
                base = base.adding(try IgnoreRules(parsing: extraPatterns.joined(separator: "\n"), baseDirectory: ""))
            } catch {
                logger.error("ignoring the configuration's ignore patterns: \(error)")
            }
        }
        self.base = base
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

    private func load(_ container: ContainerID) -> IgnoreRules {
        let file = layout.folder(of: container).appending(Self.fileName)
        guard let text = try? String(contentsOfFile: file.readable, encoding: .utf8) else { return base }
        do {
            return base.adding(try IgnoreRules(parsing: text, baseDirectory: ""))
        } catch {
            logger.error("\(file): \(error); using the default ignore rules for \(container)")
            return base
        }
    }
}
