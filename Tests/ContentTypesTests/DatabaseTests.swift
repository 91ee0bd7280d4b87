import Foundation
import Testing
@testable import ContentTypes

/// A scratch database folder, removed by `remove()`.
struct ScratchDatabase {
    let root: URL

    init(_ files: [String: [String: String]]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-mime-\(UUID().uuidString)")
        for (folder, contents) in files {
            let url = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, text) in contents { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
        }
    }

    func path(_ folder: String) -> String { root.appendingPathComponent(folder).path }
    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite("shared-mime-info database loading and glob rules")
struct DatabaseTests {
    static let globs = """
        # comment
        50:text/plain:*.txt
        50:application/x-gzip-thing:*.gz
        50:application/x-tgz:*.tar.gz
        40:text/x-log:*.log
        60:text/x-special-log:*.log
        50:text/x-readme:readme
        50:text/x-any:*e
        50:text/x-one:*.a
        50:text/x-two:*.a
        50:text/x-one-more:*.b
        50:text/x-one-child:*.b
        50:text/x-upper:*.Q:cs
        50:text/x-upper:*.Q
        """
    static let subclasses = "text/x-one-child text/x-one-more\n"

    func database() -> MimeDatabase {
        MimeDatabase(files: [(globs2: Self.globs, subclasses: Self.subclasses, aliases: "text/x-old text/plain\n")])
    }

    @Test(arguments: [
        ("a.tar.gz", ["application/x-tgz"]),            // longest pattern wins
        ("a.gz", ["application/x-gzip-thing"]),
        ("x.log", ["text/x-special-log"]),              // highest weight wins
        ("readme", ["text/x-readme"]),                  // literal before *e
        ("README", ["text/x-readme"]),
        ("theme", ["text/x-any"]),
        ("x.a", ["text/x-one", "text/x-two"]),          // ambiguous: both kept
        ("x.Q", ["text/x-upper"]),
        ("x.q", []),                                    // cs: the unflagged repeat is ignored
        ("nothing", []),
    ])
    func globRules(_ name: String, _ expected: [String]) {
        #expect(database().mimeTypes(forFileName: Array(name.utf8)) == expected)
    }

    @Test func subclassesAndAliases() {
        let db = database()
        #expect(db.canonical("text/x-old") == "text/plain")
        #expect(db.isSubclass("text/x-one-child", of: "text/x-one-more"))
        #expect(db.isSubclass("text/x-one-child", of: "text/plain"))
        #expect(db.isSubclass("image/png", of: "application/octet-stream"))
        #expect(!db.isSubclass("text/plain", of: "text/x-one-child"))
    }

    @Test func ambiguityResolvedByAParentIsDecidedByName() throws {
        let detector = try ContentTypeDetector(database: database())
        #expect(detector.needsContent(fileName: "x.a"))
        #expect(!detector.needsContent(fileName: "x.b"))
        #expect(detector.contentType(fileName: "x.b", leadingBytes: nil).mimeType == "text/x-one-more")
    }

    @Test func missingFolderIsNamedWithTheFix() {
        let missing = "/nonexistent/ubq-test/mime"
        #expect {
            try ContentTypeDetector(databaseDirectories: [missing])
        } throws: { error in
            guard let error = error as? ContentTypeError else { return false }
            return error.code == .databaseMissing && error.path == missing
                && error.message.contains(missing) && error.message.contains("apt-get install shared-mime-info")
        }
    }

    @Test func folderWithoutGlobs2IsNamed() throws {
        let scratch = try ScratchDatabase(["mime": ["aliases": ""]])
        defer { scratch.remove() }
        #expect(throws: ContentTypeError.self) { try MimeDatabase(directories: [scratch.path("mime")]) }
        do {
            _ = try MimeDatabase(directories: [scratch.path("mime")])
        } catch {
            #expect(error.message.contains(scratch.path("mime") + "/globs2"))
        }
    }

    @Test func noDefaultDatabaseNamesTheSystemFile() {
        let environment = ["HOME": "/nonexistent", "XDG_DATA_DIRS": "/nonexistent/a:/nonexistent/b"]
        do {
            _ = try MimeDatabase(directories: nil, environment: environment)
            Issue.record("expected an error")
        } catch {
            #expect(error.path == "/usr/share/mime/globs2")
            #expect(error.message.contains("/nonexistent/a/mime"))
        }
    }

    @Test func userFolderComesFirstAndNoGlobsOverrides() throws {
        let scratch = try ScratchDatabase([
            "home/mime": ["globs2": "50:text/x-mine:*.txt\n50:text/plain:__NOGLOBS__\n"],
            "system/mime": ["globs2": "50:text/plain:*.txt\n50:text/plain:*.text\n", "subclasses": "text/x-mine text/plain\n"],
        ])
        defer { scratch.remove() }
        let environment = ["HOME": "/nonexistent", "XDG_DATA_HOME": scratch.path("home"), "XDG_DATA_DIRS": scratch.path("system")]
        let db = try MimeDatabase(directories: nil, environment: environment)
        #expect(db.directories == [scratch.path("home/mime"), scratch.path("system/mime")])
        #expect(db.mimeTypes(forFileName: Array("a.txt".utf8)) == ["text/x-mine"])
        #expect(db.mimeTypes(forFileName: Array("a.text".utf8)) == [])
        #expect(db.isSubclass("text/x-mine", of: "text/plain"))
    }

    @Test func defaultSearchOrderFollowsXDG() {
        let dirs = MimeDatabase.defaultDirectories(environment: ["HOME": "/home/u"])
        #expect(dirs == ["/home/u/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"])
    }
}
