import Foundation
import SyncPlanning
import TestSupport
import Testing

@testable import SyncEngine

/// `LogLineEncoder` writes log lines by hand: `JSONDecoder`, the format's authority, must
/// read back every line it writes as the line that was written, whatever the strings hold.
@Suite struct LogLineEncoderTests {
    static func encoded(_ line: LogLine) -> [UInt8] {
        var bytes: [UInt8] = []
        LogLineEncoder.append(line, to: &bytes)
        return bytes
    }

    static func decoded(_ bytes: [UInt8]) throws -> LogLine {
        try JSONDecoder().decode(LogLine.self, from: Data(bytes))
    }

    /// Every scalar below U+0080, the line and paragraph separators, a byte-order mark,
    /// letters of several scripts, an emoji and a combining accent.
    static let hostile: String = {
        var text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) })
        text += "\u{2028}\u{2029}\u{FEFF}Résumé 東京 😀 e\u{301}"
        return text
    }()

    static let lines: [LogLine] = [
        LogLine(seq: 1, time: 0, path: "a", parents: [], op: "delete"),
        LogLine(
            seq: .max, time: .min, path: hostile, parents: ["d1:1", hostile, ""], op: "put", kind: "file", mode: .max,
            sha256: String(repeating: "ab", count: 32), size: .max, mtime: .min, target: hostile, movedFrom: "x/\"y\"\\z\n"),
        LogLine(seq: 7, time: -1, path: "Documents/link", parents: ["d2:9"], op: "put", kind: "symlink", target: "../../outside"),
        LogLine(seq: 8, time: 1_795_340_000_000, path: "Folder", parents: [], op: "put", kind: "folder", mode: 0o755),
        LogLine(seq: 9, time: 2, path: "a", parents: ["d1:8"], op: "delete", forgets: true),
    ]

    @Test(arguments: lines)
    func theDecoderReadsBackWhatWasWritten(_ line: LogLine) throws {
        #expect(try Self.decoded(Self.encoded(line)) == line)
    }

    @Test func nilFieldsAreLeftOutAndTheKeysComeInOneOrder() {
        let text = String(decoding: Self.encoded(Self.lines[0]), as: UTF8.self)
        #expect(text == #"{"seq":1,"time":0,"path":"a","parents":[],"op":"delete"}"#)
    }

    @Test func stringsAreEscapedAsJSONEncoderEscapesThem() throws {
        let line = LogLine(seq: 1, time: 0, path: "\u{0}\u{8}\t\n\u{B}\u{C}\r\u{1F} \"\\/é\u{7F}", parents: [], op: "delete")
        let text = String(decoding: Self.encoded(line), as: UTF8.self)
        #expect(text.contains(#""path":"\u0000\b\t\n\u000b\f\r\u001f \"\\/é\#u{7F}""#))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let theirs = String(decoding: try encoder.encode(["path": line.path]), as: UTF8.self)
        #expect(text.contains(theirs.dropFirst().dropLast()))
    }

    @Test func linesAppendToWhatTheBufferHolds() {
        var bytes = Array("before\n".utf8)
        LogLineEncoder.append(Self.lines[0], to: &bytes)
        #expect(bytes == Array("before\n".utf8) + Self.encoded(Self.lines[0]))
    }

    /// Seeded random strings of scalars from every plane: the decoder reads each back.
    @Test func randomStringsRoundTrip() throws {
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<2_000 {
            let path = String(String.UnicodeScalarView((0..<Int.random(in: 0...24, using: &generator)).map { _ in
                Self.randomScalar(using: &generator)
            }))
            let line = LogLine(seq: 1, time: 2, path: path, parents: [path], op: "put", kind: "symlink", target: path)
            #expect(try Self.decoded(Self.encoded(line)) == line, "\(path.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    static func randomScalar(using generator: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let value = [UInt32.random(in: 0..<0x80, using: &generator), UInt32.random(in: 0..<0x11_0000, using: &generator)]
                .randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(value) { return scalar }  // not a surrogate
        }
    }
}
