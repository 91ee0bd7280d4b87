import Foundation
import Testing

@testable import SyncEngine

/// What a container's `.ubqignore` names stays on its device, whatever else the file holds.
@Suite struct IgnoreFileSyncTests {
    @Test func anIgnoredFileStaysHereThoughAnotherLineIsNotUTF8() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        let ignoreFile = Array("secret.txt\ncaf".utf8) + [0xE9] + Array(".log\n".utf8)  // a Latin-1 line
        try Data(ignoreFile).write(to: URL(fileURLWithPath: a.root + "/" + TestDevice.containerID.folderName + "/.ubqignore"))
        try a.write("secret.txt", "pin 1234")
        try a.write("notes.txt", "shared")
        a.sync()
        b.sync()

        #expect(b.read("notes.txt") == "shared")
        #expect(b.read("secret.txt") == nil, "\(b.tree())")
    }
}
