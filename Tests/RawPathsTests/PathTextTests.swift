import RawPaths
import Testing

/// Paths as text are taken apart at their "/" bytes, even where a name starts with a
/// combining mark and Swift makes "/" and the mark one `Character`.
@Suite struct PathTextTests {
    static let mark = "\u{301}"

    @Test func aSlashBeforeACombiningMarkIsASlash() {
        let path = "docs/\(Self.mark)note.txt"
        #expect(path.lastIndex(of: "/") == nil, "the trap: by characters, there is no slash")
        #expect(path.folderBeforeLastSlash == "docs")
        #expect(path.lastSlash.map { path[path.utf8.index(after: $0)...] }.map(Array.init(_:)) == Array("\(Self.mark)note.txt"))
    }

    @Test(arguments: [
        ("a/b/c", "a/b"), ("/a", ""), ("/", ""), ("a", nil), ("", nil), ("a/", "a"),
        ("/r/\u{301}x/\u{308}y", "/r/\u{301}x"), ("\u{301}/x", "\u{301}"),
    ] as [(String, String?)])
    func theFolderIsWhatComesBeforeTheLastSlash(_ path: String, _ folder: String?) {
        #expect(path.folderBeforeLastSlash.map(String.init) == folder)
        #expect(Substring(path).folderBeforeLastSlash.map(String.init) == folder)
    }

    @Test(arguments: [
        ("a/b/c", ["a", "b", "c"]), ("//a//b/", ["a", "b"]), ("", []), ("/", []),
        ("\u{301}a/\u{301}b", ["\u{301}a", "\u{301}b"]), ("x/\u{308}", ["x", "\u{308}"]),
    ])
    func theNamesAreBetweenTheSlashes(_ path: String, _ names: [String]) {
        #expect(path.pathNames.map { Array($0.utf8) } == names.map { Array($0.utf8) })
    }

    @Test(arguments: [
        ("/c/Documents/x", "/c/Documents", "x"), ("/c/Documents/\u{301}x", "/c/Documents", "\u{301}x"),
        ("/c/Documents/a/b", "/c/Documents", "a/b"), ("/c/Documents", "/c/Documents", nil),
        ("/c/Documents/", "/c/Documents", ""), ("/c/Documentsx/a", "/c/Documents", nil), ("/c", "/c/Documents", nil),
        ("/c/Documents\u{301}/a", "/c/Documents", nil),
    ] as [(String, String, String?)])
    func whatLiesBelowAFolder(_ path: String, _ folder: String, _ rest: String?) {
        #expect(path.below(folder).map { Array($0.utf8) } == rest.map { Array($0.utf8) })
    }

    @Test(arguments: [
        ("/c/Documents/x", "/c/Documents", "x"), ("/c/Documents/\u{301}x", "/c/Documents", "\u{301}x"),
        ("/c/Documents/a/b", "/c/Documents", "a/b"), ("/c/Documents/", "/c/Documents", ""), ("/x", "", "x"),
    ])
    func aFolderIsAboveWhatLiesBelowIt(_ path: String, _ folder: String, _ rest: String) {
        #expect(path.above(rest).map { Array($0.utf8) } == Array(folder.utf8))
    }

    @Test(arguments: [("a/b", "a/b"), ("ab", "b"), ("a/b", "/b"), ("a/\u{301}b", "b"), ("b", "b"), ("a/b", "c")])
    func nothingIsAboveWhatThePathDoesNotEndWithAfterASlash(_ path: String, _ rest: String) {
        #expect(path.above(rest) == nil)
    }

    @Test(arguments: [("a/b/c.txt", "c.txt"), ("c.txt", "c.txt"), ("a/", ""), ("a/\u{301}b", "\u{301}b")])
    func theLastNameComesAfterTheLastSlash(_ path: String, _ name: String) {
        #expect(Array(path.lastName.utf8) == Array(name.utf8))
    }
}
