import Foundation
import RawPaths
import Testing

/// `RawPath.shellQuoted`: a name in a message that bash reads back as the same bytes.
@Suite struct ShellQuotingTests {
    @Test(arguments: [
        (Array("Documents/a b.txt".utf8), "'Documents/a b.txt'"),
        (Array("café/日本.txt".utf8), "'café/日本.txt'"),
        (Array("caf".utf8) + [0xE9] + Array(".txt".utf8), "$'caf\\xe9.txt'"),
        (Array("it's\n".utf8), "$'it\\'s\\n'"),
        (Array("a\\b\t\u{1B}[31m".utf8), "$'a\\\\b\\t\\x1b[31m'"),
        (Array("next\u{85}line".utf8), "$'next\\xc2\\x85line'"),
        (Array("$HOME `id`".utf8), "'$HOME `id`'"),
        ([0xE2, 0x82], "$'\\xe2\\x82'"),  // a sequence cut short
    ] as [([UInt8], String)])
    func aNameIsQuotedSoThatEveryByteShows(_ bytes: [UInt8], _ quoted: String) {
        #expect(RawPath(bytes: bytes).shellQuoted == quoted)
    }

    /// The real check: bash, given the quoted word, prints the path's bytes.
    @Test func bashReadsTheQuotedNameBackAsTheSameBytes() throws {
        let names: [[UInt8]] = [
            Array("plain.txt".utf8), Array("caf".utf8) + [0xE9, 0xFF, 0xC0, 0x80], Array("quote ' and \\ and $HOME".utf8),
            Array("\u{1}\u{7F}\u{9B}\r\n\t end".utf8), Array("🎉 ok".utf8) + [0xF0, 0x9F],
            Array("$HOME `id` \"x\" !! * ?".utf8),  // the plain form: nothing in '…' is expanded
            [0xED, 0xA0, 0x80, 0xC0, 0x80] + Array("\u{2028}".utf8),  // a surrogate and an overlong NUL: not UTF-8
        ]
        for name in names {
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-c", "printf %s " + RawPath(bytes: name).shellQuoted]
            let output = Pipe()
            bash.standardOutput = output
            try bash.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            bash.waitUntilExit()
            #expect(Array(printed) == name, "\(RawPath(bytes: name).shellQuoted)")
        }
    }
}
