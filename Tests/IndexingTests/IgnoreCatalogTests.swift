import Foundation
import Indexing
import RawPaths
import TestSupport
import Testing
import UbiquitySettings

/// A container's `.ubqignore` as the indexer and sync read it: one bad line costs only
/// itself, never the file's other patterns (those files would be synced to every device).
@Suite struct IgnoreCatalogTests {
    static let container = ContainerID(folderName: "iCloud~org~ubiquity~Tests")!

    /// A catalog over a new root holding `container` with `ignoreFile` as its `.ubqignore`.
    final class Root {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-ignore-\(UUID().uuidString)").path
        let (logger, messages) = RecordingLogHandler.logger()
        let catalog: IgnoreCatalog

        init(ignoreFile: [UInt8]?) throws {
            let folder = path + "/" + IgnoreCatalogTests.container.folderName
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let ignoreFile { try Data(ignoreFile).write(to: URL(fileURLWithPath: folder + "/.ubqignore")) }
            catalog = IgnoreCatalog(layout: ContainerLayout(root: RawPath(path)), extraPatterns: [], logger: logger)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        func ignores(_ name: [UInt8]) -> Bool {
            catalog.rules(for: IgnoreCatalogTests.container).isIgnored(relativePath: Array("Documents/".utf8) + name, isDirectory: false)
        }
    }

    @Test func aLineThatIsNotUTF8CostsNoOtherPattern() throws {
        let latin1 = Array("caf".utf8) + [0xE9] + Array(".log".utf8)  // "café.log" in Latin-1
        let root = try Root(ignoreFile: Array("secret.txt\n".utf8) + latin1 + [0x0A])
        #expect(root.ignores(Array("secret.txt".utf8)))
        #expect(root.ignores(latin1), "the Latin-1 name itself, matched as names that are not UTF-8 are")
        #expect(!root.ignores(Array("notes.txt".utf8)))
    }

    @Test func aLineThatIsNoPatternIsSkippedAndSaidWhereItIs() throws {
        let root = try Root(ignoreFile: Array("secret.txt\n[oops\n*.log\n".utf8))
        #expect(root.ignores(Array("secret.txt".utf8)) && root.ignores(Array("build.log".utf8)))
        let errors = root.messages.texts(at: .error)
        #expect(errors.count == 1 && errors[0].contains(".ubqignore line 2") && errors[0].contains("[oops"), "\(errors)")
    }

    @Test func noIgnoreFileIsNoProblem() throws {
        let root = try Root(ignoreFile: nil)
        #expect(!root.ignores(Array("secret.txt".utf8)))
        #expect(root.ignores(Array("notes.txt.swp".utf8)), "the editors' temporaries still are")
        #expect(root.messages.texts(at: .error).isEmpty)
    }
}
