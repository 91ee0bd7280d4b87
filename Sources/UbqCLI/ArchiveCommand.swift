import ArgumentParser
import Foundation
import KeyedArchive

/// `ubq archive`: read and write NSKeyedArchiver archives locally (no daemon).
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive", abstract: "Decode or build NSKeyedArchiver archives.",
        subcommands: [Decode.self, Encode.self])

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Print an archive's object graph.",
            discussion: "--json prints the nska-json-v1 convention of ../shared/fixtures/keyedarchive/README.md. Exits 1 when the archive is damaged (the JSON then carries \"error\").")

        @Argument(help: "The archive (binary or XML property list).") var file: String
        @Flag(help: "Print the nska-json-v1 JSON document.") var json = false

        func run() throws {
            let bytes = try readBytes(file)
            let name = URL(fileURLWithPath: file).lastPathComponent
            let digest = ArchiveDigest.sha256Hex(bytes)
            let document = ArchiveJSON.document(archiveBytes: bytes, fileName: name, sha256: digest)
            if json {
                Output.line(document.serialized(indent: 1))
            } else if document.errorMessage == nil {
                Output.line(ArchiveOutline.render(archiveBytes: bytes))
            }
            if let error = document.errorMessage {
                Output.error("\(file): \(error)")
                throw ExitCode(1)
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "encode", abstract: "Build an archive from nska-json-v1 JSON (binary unless --xml).")

        @Argument(help: "The JSON document (`ubq archive decode --json` output, or just its `top`).") var input: String
        @Argument(help: "Where to write the archive.") var output: String
        @Flag(help: "Write an XML property list.") var xml = false

        func run() throws {
            let text = String(decoding: try readBytes(input), as: UTF8.self)
            do {
                let archive = try ArchiveJSON.archive(fromJSON: text, format: xml ? .xml : .binary)
                try Data(archive).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch let error as ArchiveError {
                Output.error("\(input): \(error)")
                throw ExitCode(1)
            }
        }
    }
}

private func readBytes(_ path: String) throws -> [UInt8] {
    do {
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
        throw ValidationError("cannot read \(path): \(error.localizedDescription)")
    }
}

extension JSONValue {
    /// The `error` member of a decoded document, if the archive could not be decoded.
    var errorMessage: String? {
        guard case .object(let members) = self else { return nil }
        for (key, value) in members where key == "error" {
            if case .string(let message) = value { return message }
        }
        return nil
    }
}
