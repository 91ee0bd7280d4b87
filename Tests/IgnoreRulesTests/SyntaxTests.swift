import Testing
import IgnoreRules

@Suite("gitignore syntax and errors")
struct SyntaxTests {
    struct Case: Sendable {
        var text: String
        var path: String
        var isDirectory = false
        var ignored: Bool
    }

    static let cases: [Case] = [
        Case(text: "*.log", path: "deep/er/debug.log", ignored: true),
        Case(text: "/debug.log", path: "sub/debug.log", ignored: false),
        Case(text: "logs/", path: "logs", isDirectory: false, ignored: false),
        Case(text: "logs/", path: "logs", isDirectory: true, ignored: true),
        Case(text: "logs/", path: "a/logs/x.txt", ignored: true),
        Case(text: "a/**/z", path: "a/z", ignored: true),
        Case(text: "a/**/z", path: "a/b/c/z", ignored: true),
        Case(text: "a/*/z", path: "a/b/c/z", ignored: false),
        Case(text: "**/z", path: "q/z", ignored: true),
        Case(text: "x/**", path: "x", isDirectory: true, ignored: false),
        Case(text: "x/**", path: "x/y", ignored: true),
        Case(text: "[a-c]?.txt", path: "b1.txt", ignored: true),
        Case(text: "[!a-c]?.txt", path: "b1.txt", ignored: false),
        Case(text: "[^a-c]?.txt", path: "d1.txt", ignored: true),
        Case(text: "\\#x", path: "#x", ignored: true),
        Case(text: "#x", path: "#x", ignored: false),
        Case(text: "\\!x", path: "!x", ignored: true),
        Case(text: "x\\ ", path: "x ", ignored: true),
        Case(text: "x  ", path: "x", ignored: true),
        Case(text: "*.txt\n!keep.txt", path: "keep.txt", ignored: false),
        Case(text: "!keep.txt\n*.txt", path: "keep.txt", ignored: true),
        Case(text: "out/\n!out/keep.txt", path: "out/keep.txt", ignored: true),
        Case(text: "*.txt\r\n", path: "a.txt", ignored: true),
        Case(text: "caf\u{E9}/", path: "caf\u{E9}/menu.txt", ignored: true),
        Case(text: "bad?name", path: String(decoding: [0x62, 0x61, 0x64, 0xFF, 0x6E, 0x61, 0x6D, 0x65], as: UTF8.self), ignored: false),
        Case(text: "bad*name", path: String(decoding: [0x62, 0x61, 0x64, 0xFF, 0x6E, 0x61, 0x6D, 0x65], as: UTF8.self), ignored: true),
    ]

    @Test(arguments: cases)
    func matches(_ c: Case) throws {
        let rules = try IgnoreRules(parsing: c.text, baseDirectory: "")
        #expect(rules.isIgnored(relativePath: c.path, isDirectory: c.isDirectory) == c.ignored, "\(c.text) on \(c.path)")
    }

    @Test func subfolderRulesApplyOnlyBelowTheirFolder() throws {
        let rules = try IgnoreRules(parsing: "*.tmp\n/build", baseDirectory: "projects/app")
        #expect(rules.isIgnored(relativePath: "projects/app/x.tmp", isDirectory: false))
        #expect(rules.isIgnored(relativePath: "projects/app/build", isDirectory: true))
        #expect(!rules.isIgnored(relativePath: "projects/app/src/build", isDirectory: true))
        #expect(!rules.isIgnored(relativePath: "projects/x.tmp", isDirectory: false))
        #expect(!rules.isIgnored(relativePath: "projects/application/x.tmp", isDirectory: false))
    }

    @Test func deeperFileWinsWhateverTheOrderAdded() throws {
        let deep = try IgnoreRules(parsing: "!keep.log", baseDirectory: "a")
        let root = try IgnoreRules(parsing: "*.log", baseDirectory: "")
        #expect(!deep.adding(root).isIgnored(relativePath: "a/keep.log", isDirectory: false))
        #expect(!root.adding(deep).isIgnored(relativePath: "a/keep.log", isDirectory: false))
    }

    static let badLines: [(text: String, line: Int, mentions: String)] = [
        ("ok\n[abc", 2, "never closed"),
        ("# c\n\n*.[[:alpah:]]", 3, "alpah"),
        ("trailing\\", 1, "lone"),
    ]

    @Test(arguments: badLines)
    func unusableLineIsNamed(_ bad: (text: String, line: Int, mentions: String)) {
        #expect {
            try IgnoreRules(parsing: bad.text, baseDirectory: "")
        } throws: { error in
            guard let error = error as? IgnoreRuleError else { return false }
            return error.line == bad.line && error.code == .invalidPattern
                && error.description.contains("line \(bad.line)") && error.description.contains(bad.mentions)
        }
    }

    @Test func lenientParsingKeepsGoodLines() throws {
        let (rules, problems) = try IgnoreRules.parsingLeniently("[oops\n*.log", baseDirectory: "")
        #expect(problems.map(\.line) == [1])
        #expect(rules.isIgnored(relativePath: "a.log", isDirectory: false))
    }

    @Test(arguments: ["/abs", "a/../b", "./a"])
    func baseDirectoryMustBeRelative(_ base: String) {
        #expect(throws: IgnoreRuleError.self) { try IgnoreRules(parsing: "*", baseDirectory: base) }
    }

    @Test func emptyAndRootPathsAreNotIgnored() throws {
        let rules = try IgnoreRules(parsing: "*", baseDirectory: "")
        #expect(!rules.isIgnored(relativePath: "", isDirectory: true))
        #expect(rules.isIgnored(relativePath: "/x", isDirectory: false))
    }
}
