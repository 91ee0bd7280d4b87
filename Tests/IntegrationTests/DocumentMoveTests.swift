import Foundation
import Testing
import Ubiquity

/// An open `Document` follows its file when it is moved, as UIDocument does through
/// `presentedItemDidMove(to:)`: against real daemons, with the move made by a program that
/// does not coordinate (`mv`) and by another device.
@Suite("A document follows its file", .serialized)
final class DocumentMoveTests {
    let shared = SharedMirror()

    private func url(_ name: String, on device: DaemonHarness) -> URL {
        URL(fileURLWithPath: device.documents + "/" + name)
    }

    /// The edit made before the rename is saved at the new name: nothing comes back at the
    /// old one, and no copy is left behind.
    @Test func aRenameByAnotherProgramMovesTheDocumentAndItsNextSave() async throws {
        let device = shared.add(try DaemonHarness())
        try device.start()
        try device.shell("echo base > doc.txt; mkdir -p Notes")
        let document = try await device.openTextDocument(url("doc.txt", on: device))
        document.text = "edited while it moved\n"
        document.updateChangeCount(.done)

        let moves = document.moves()
        try device.shell("mv doc.txt Notes/renamed.txt")
        #expect(await DocumentStream.yields(moves), "told of the move")
        #expect(document.fileURL == url("Notes/renamed.txt", on: device))

        try await document.close()  // saves the edit
        #expect(try String(contentsOfFile: device.documents + "/Notes/renamed.txt", encoding: .utf8) == "edited while it moved\n")
        #expect(!FileManager.default.fileExists(atPath: device.documents + "/doc.txt"))
        #expect(document.fileURL == url("Notes/renamed.txt", on: device), "a closed document stays where its file went")
    }

    /// Another device renamed the file; sync renames it here, and the document follows.
    @Test func aRenameOnAnotherDeviceMovesTheDocument() async throws {
        let (a, b) = try shared.twoDevices()
        try a.shell("echo base > doc.txt")
        try shared.sync(a, b)
        let document = try await a.openTextDocument(url("doc.txt", on: a))

        let moves = document.moves()
        try b.shell("mv doc.txt renamed.txt")
        try shared.sync(b, a)
        #expect(await DocumentStream.yields(moves), "told of the move")
        #expect(document.fileURL == url("renamed.txt", on: a))
        #expect(document.documentState == .normal)

        document.text = "saved after the move\n"
        document.updateChangeCount(.done)
        try await document.save(to: document.fileURL, for: .forOverwriting)  // the same file: not refused as changed
        try await document.close()
        try shared.sync(a, b)
        #expect(try String(contentsOfFile: b.documents + "/renamed.txt", encoding: .utf8) == "saved after the move\n")
        #expect(!FileManager.default.fileExists(atPath: b.documents + "/doc.txt"))
    }
}
