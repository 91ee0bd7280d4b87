import Foundation
import KeyedArchive

/// Runs `Tests/interop/decode_check.py` over a batch of archives written to a temp folder.
enum InteropSupport {
    static let script = FixturePaths.repoRoot.appendingPathComponent("Tests/interop/decode_check.py")

    struct Case {
        var bytes: [UInt8]
        var key: String
        var expected: JSONValue
        var fileExtension = "plist"
    }

    /// Writes the cases and runs one library over them; returns the script's stderr on failure.
    static func check(library: String, cases: [Case]) throws -> String? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ka-interop-\(library)-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var manifest = [JSONValue]()
        for (index, item) in cases.enumerated() {
            let file = folder.appendingPathComponent("case\(index).\(item.fileExtension)")
            try Data(item.bytes).write(to: file)
            manifest.append(.object([("archive", .string(file.path)), ("key", .string(item.key)), ("expected", item.expected)]))
        }
        let manifestFile = folder.appendingPathComponent("cases.json")
        try JSONValue.array(manifest).serialized(indent: 0).write(to: manifestFile, atomically: true, encoding: .utf8)
        return try run(["python3", script.path, library, manifestFile.path])
    }

    private static func run(_ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        _ = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "exit \(process.terminationStatus): " + errorText
    }
}
