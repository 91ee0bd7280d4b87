import RawPaths
import Testing

@Suite struct RawPathTests {
    @Test func componentsIgnoreRepeatedSlashes() {
        let path = RawPath("/a//b/c/")
        #expect(path.components.map { String(decoding: $0, as: UTF8.self) } == ["a", "b", "c"])
        #expect(path.lastComponent == Array("c".utf8))
        #expect(path.isAbsolute)
    }

    @Test(arguments: ["", "/", "//", "a", "/a", "//a//b", "a/b/", "Documents/x", "/r/c/Documents/d/e.txt"])
    func theFirstComponentIsTheFirstOfTheComponents(_ path: String) {
        let raw = RawPath(path)
        #expect(raw.firstComponent == raw.components.first.map(Array.init))
    }

    @Test func appendingKeepsRawBytes() {
        let name: [UInt8] = [0x66, 0xFF, 0x0A]
        let path = RawPath("docs").appending(name)
        #expect(path.bytes == Array("docs/".utf8) + name)
        #expect(RawPath().appending(name).bytes == name)
        #expect(path.readable == "docs/f\u{FFFD}\n")
    }

    /// Every form of `appending` (an array, a slice, any collection) joins alike: one '/'
    /// between, the name's leading slashes dropped (but onto the empty path), trailing ones
    /// trimmed.
    @Test(arguments: [
        ("", "x", "x"), ("", "/x", "/x"), ("", "x/", "x"), ("", "/", "/"), ("a", "", "a"), ("a/", "b", "a/b"),
        ("a", "/b", "a/b"), ("a", "b/", "a/b"), ("a", "//b//", "a/b"), ("/", "b", "/b"), ("a", "/", "a"), ("/", "/", "/"),
    ])
    func appendingJoinsWithOneSlash(base: String, name: String, expected: String) {
        let path = RawPath(base)
        let bytes = Array(name.utf8)
        #expect(path.appending(bytes) == RawPath(expected))
        #expect(path.appending(bytes).bytes == Array(expected.utf8))
        #expect(path.appending(bytes[...]) == RawPath(expected))
        #expect(path.appending(name.utf8) == RawPath(expected))
        #expect(path.appending(RawPath(name)).bytes == path.appending(Array(RawPath(name).bytes)).bytes)
    }

    @Test(arguments: [
        ("a/b", "a", true), ("a", "a", true), ("ab", "a", false), ("a/b", "", true), ("/a", "", false),
        ("a b/c", "a", false), ("/r/x", "/r", true), ("/rx", "/r", false),
    ])
    func containment(path: String, folder: String, expected: Bool) {
        #expect(RawPath(path).isSame(orBelow: RawPath(folder)) == expected)
    }

    @Test func rebasingMovesTheSubtreeOnly() {
        #expect(RawPath("a/x/f").rebased(from: "a", to: "b/c") == "b/c/x/f")
        #expect(RawPath("a").rebased(from: "a", to: "b") == "b")
        #expect(RawPath("ab/f").rebased(from: "a", to: "b") == "ab/f")
    }

    @Test func droppingAndRemovingComponents() {
        #expect(RawPath("c/Documents/x").droppingFirst(1) == "Documents/x")
        #expect(RawPath("c").droppingFirst(1) == RawPath())
        #expect(RawPath("/r/c/d").removingLastComponent() == "/r/c")
        #expect(RawPath("/r").removingLastComponent() == "/")
        #expect(RawPath("a/b/c").ancestors == ["a/b", "a"])
    }

    @Test func lexicalNormalization() {
        #expect(RawPath("/r/./a/../b").lexicallyNormalized() == "/r/b")
        #expect(RawPath("/../x").lexicallyNormalized() == "/x")
    }

    @Test func fileURLsRoundTripEveryByte() {
        let path = RawPath(bytes: Array("/r/a b%".utf8) + [0xFF, 0x0A] + Array("é".utf8))
        let url = path.fileURLString(isFolder: false)
        #expect(url == "file:///r/a%20b%25%FF%0A%C3%A9")
        #expect(RawPath(fileURLString: url) == path)
        #expect(RawPath("/r/dir").fileURLString(isFolder: true) == "file:///r/dir/")
        #expect(RawPath(fileURLString: "file:///r/dir/") == "/r/dir")
        #expect(RawPath(fileURLString: "file:///bad%G1") == nil)
    }
}

/// `<` is byte order (memcmp), the order SQLite gives BLOBs: the start-up scan writes rows
/// in this order so that they arrive in index order.
@Suite struct RawPathOrderTests {
    @Test func orderIsLexicographicByteOrder() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x00, 0x2F, 0x30, 0x41, 0x61, 0x7F, 0x80, 0xC3, 0xFF]
        let paths = (0..<400).map { _ in
            RawPath(bytes: (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
        }
        for left in paths.prefix(60) {
            for right in paths {
                #expect((left < right) == left.bytes.lexicographicallyPrecedes(right.bytes), "\(left.bytes) < \(right.bytes)")
            }
        }
    }

    @Test func aPrefixComesFirstAndEqualPathsAreNotLess() {
        #expect(RawPath("a") < RawPath("a/b"))
        #expect(!(RawPath("a/b") < RawPath("a")))
        #expect(!(RawPath("a/b") < RawPath("a/b")))
        #expect(RawPath("a/b") < RawPath("a0"))  // '/' sorts before '0': a subtree is one range
    }
}
