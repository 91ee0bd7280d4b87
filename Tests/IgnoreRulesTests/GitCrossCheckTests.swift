import Testing
@testable import IgnoreRules

/// Every pattern file below, applied to every path of `GitCheckIgnore.tree`, must give the
/// same answer as `git check-ignore --no-index`: (66 root files + 7 nested sets) × 53 paths
/// ≈ 3,900 comparisons.
@Suite("IgnoreRules agrees with git check-ignore")
struct GitCrossCheckTests {
    static let singlePatterns: [String] = [
        "*.log", "/notes.txt", "notes.txt", "build/", "build", "/build/", "src/lib", "src/*.c",
        "src/**/*.c", "**/lib", "**/node_modules/", "node_modules", "a/**/deep.txt", "a/**", "**/*.h",
        "*.[oa]", "*.[!o]", "*.[^o]", "[a-c]*", "[[:upper:]]*", "[[:digit:]]*", "?", "??", "\\#hash",
        "\\!bang", "#hash", "docs/*", "*.md", ".*", "foo bar.txt", "trailing\\ ", "trailing ",
        "x\\[1\\].txt", "x[1].txt", "a/*/c", "*/file.log", "a/b/", "!notes.txt", "star\\*name",
        "*.c*", "**", "src/**", "**/b/**", "a/**/b", "/a/b/c", "doc/frotz/", "doc/frotz", "[]a]*",
        "[!a-z]*", "*[:]*", "src/lib/*.[ch]", "***/deep.txt", "a**b", "Z*", "*/", "/*/",
    ]

    static let multiLine: [String] = [
        "*.log\n!a/file.log",
        "build/\n!build/app.o",
        "*\n!*/\n!*.c",
        "docs/*\n!docs/readme.md",
        "/*\n!/src",
        "*.txt   \n\\!bang\r\n# comment\n\n",
        "src/\n!src/main.c",
        "!*.log\n*.log",
        "*.log\n!*.log",
        "a/b\n!a/b/c",
    ]

    @Test("one .gitignore at the root", arguments: singlePatterns + multiLine)
    func rootFile(text: String) throws {
        try compare(ignoreFiles: ["": text])
    }

    static let nested: [[String: String]] = [
        ["": "*.c", "src": "!main.c"],
        ["": "!*.h", "src": "*.h"],
        ["": "*.txt", "a/b": "!deep.txt\n!c/"],
        ["src": "/lib\n*.txt"],
        ["src": "lib/\n!lib/util.h"],
        ["": "node_modules/", "src": "!node_modules/"],
        ["a": "b/c/*.txt", "": "deep*"],
    ]

    @Test("ignore files in subfolders apply relative to their folder", arguments: nested)
    func nestedFiles(files: [String: String]) throws {
        try compare(ignoreFiles: files)
    }

    /// Guards the harness itself: if git's output were misread, every comparison above could
    /// agree on "nothing ignored".
    @Test func harnessReadsGitOutput() throws {
        let repo = try GitCheckIgnore(ignoreFiles: ["": "*.log\n!a/file.log"])
        defer { repo.remove() }
        let ignored = try repo.ignoredPaths(GitCheckIgnore.paths.map(\.path))
        #expect(ignored == ["a/b/file.log", "file.log", "logs/today.log", "debug.log"])
    }

    private func compare(ignoreFiles: [String: String]) throws {
        let repo = try GitCheckIgnore(ignoreFiles: ignoreFiles)
        defer { repo.remove() }
        let paths = GitCheckIgnore.paths
        let gitIgnored = try repo.ignoredPaths(paths.map(\.path))
        var rules = IgnoreRules.none
        for folder in ignoreFiles.keys.sorted() {
            let lenient = try IgnoreRules.parsingLeniently(ignoreFiles[folder] ?? "", baseDirectory: folder)
            rules = rules.adding(lenient.rules)
        }
        for (path, isDirectory) in paths {
            let ours = rules.isIgnored(relativePath: path, isDirectory: isDirectory)
            #expect(ours == gitIgnored.contains(path), "\(ignoreFiles) on \"\(path)\": git says \(gitIgnored.contains(path)), we say \(ours)")
        }
    }
}
