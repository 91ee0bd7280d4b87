import Foundation

/// Runs the real `git check-ignore` on a scratch work tree, as the reference the matcher
/// must agree with.
struct GitCheckIgnore {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Folders and files of the scratch tree (folders end in "/").
    static let tree: [String] = [
        "build/", "build/out/", "src/", "src/lib/", "docs/", "a/", "a/b/", "a/b/c/", "logs/",
        ".hidden/", "node_modules/", "src/node_modules/", "doc/",
        "notes.txt", "build/app.o", "build/out/app", "build/notes.txt", "src/main.c", "src/lib/util.c",
        "src/lib/util.h", "src/notes.txt", "src/lib.c", "docs/readme.md", "docs/Readme.MD", "docs/guide.txt",
        "a/b/c/deep.txt", "a/b/file.log", "a/file.log", "file.log", "logs/today.log", ".hidden/secret",
        ".env", "main.o", "lib.a", "debug.log", "trailing ", "#hash", "!bang", "q.txt", "x1.txt", "x[1].txt",
        "foo bar.txt", "src/node_modules/pkg.js", "node_modules/pkg.js", "ab", "abc", "a.b", "README",
        "doc/frotz", "a/c", "Zeta.txt", "star*name", "src/a.c.orig",
    ]

    /// Paths of `tree` without the folder marker, with whether each is a folder.
    static var paths: [(path: String, isDirectory: Bool)] {
        tree.map { $0.hasSuffix("/") ? (String($0.dropLast()), true) : ($0, false) }
    }

    let root: URL

    /// Creates a repository holding `tree` and the given ignore files (folder → text).
    init(ignoreFiles: [String: String]) throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("ubq-ignore-\(UUID().uuidString)", isDirectory: true)
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        for entry in Self.tree {
            let url = root.appendingPathComponent(entry)
            if entry.hasSuffix("/") {
                try fm.createDirectory(at: url, withIntermediateDirectories: true)
            } else {
                try Data().write(to: url)
            }
        }
        for (folder, text) in ignoreFiles {
            try Data(text.utf8).write(to: root.appendingPathComponent(folder).appendingPathComponent(".gitignore"))
        }
        _ = try run(["init", "-q"], input: Data())
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The set of paths git reports as ignored (a negated last match means not ignored).
    func ignoredPaths(_ paths: [String]) throws -> Set<String> {
        var input = Data()
        for path in paths { input.append(contentsOf: Array(path.utf8) + [0]) }
        let output = try run(["check-ignore", "--no-index", "-v", "-n", "-z", "--stdin"], input: input)
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var ignored = Set<String>()
        var index = 0
        while index + 3 < fields.count {
            let pattern = fields[index + 2]
            if !pattern.isEmpty && !pattern.hasPrefix("!") { ignored.insert(fields[index + 3]) }
            index += 4
        }
        return ignored
    }

    private func run(_ arguments: [String], input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", root.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = root.path
        environment["XDG_CONFIG_HOME"] = root.path
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // check-ignore exits 1 when nothing is ignored: only 128 and up are failures.
        if process.terminationStatus >= 128 {
            throw Failure(description: "git \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return output
    }
}
