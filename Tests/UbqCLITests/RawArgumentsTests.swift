import Testing

@testable import UbqCLI

/// Arguments are taken back to their bytes: what ArgumentParser decoded lossily is
/// found again on the command line.
@Suite struct RawArgumentsTests {
    let latin1 = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)

    @Test func aLossilyDecodedArgumentGetsItsBytesBack() throws {
        let command = [Array("ubq".utf8), Array("mdls".utf8), latin1]
        #expect(try RawArguments.bytes(of: String(decoding: latin1, as: UTF8.self), in: command) == latin1)
        #expect(try RawArguments.bytes(of: "mdls", in: command) == Array("mdls".utf8))
    }

    @Test func twoArgumentsThatDecodeAlikeAreRefused() {
        let other = Array("caf".utf8) + [0xE8] + Array(".txt".utf8)
        #expect(throws: (any Error).self) {
            try RawArguments.bytes(of: String(decoding: latin1, as: UTF8.self), in: [Array("ubq".utf8), latin1, other])
        }
    }

    @Test func theCommandIsWhatFollowsTheFirstSeparator() {
        let command = [Array("ubq".utf8), Array("coordinate".utf8), Array("--".utf8), Array("vim".utf8), Array("--".utf8), latin1]
        #expect(RawArguments.afterSeparator(in: command) == [Array("vim".utf8), Array("--".utf8), latin1])
        #expect(RawArguments.afterSeparator(in: [Array("ubq".utf8)]) == nil)
    }
}
