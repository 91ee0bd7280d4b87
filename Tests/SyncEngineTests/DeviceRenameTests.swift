import Foundation
import TestSupport
import Testing

@testable import SyncEngine

/// A device's name (`device_name`): the one other devices show it by, in conflict copies
/// and version lists. It was the host name for good, so two machines a Debian installer
/// both called `debian` could not be told apart.
@Suite struct DeviceRenameTests {
    @Test func aRenamedDeviceIsShownByItsNewNameOnTheOthers() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let id = a.engine.device.id
        let registered = try #require(DeviceRecord(path: MirrorLayout(root: a.mirror).deviceFile(id)))

        a.deviceName = "laptop"
        try a.restart()
        a.sync()

        #expect(a.engine.device == (id, "laptop"), "the id stays")
        let record = try #require(DeviceRecord(path: MirrorLayout(root: a.mirror).deviceFile(id)))
        #expect(record == DeviceRecord(id: id, name: "laptop", created: registered.created), "registered when it first was")
        let versions = try b.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt")
        #expect(versions.filter { $0.device == id }.map(\.deviceName) == ["laptop", "laptop"], "\(versions)")
        let loser = try #require(b.engine.conflicts().first?.others.first)
        #expect(loser.device == id && loser.deviceName == "laptop", "a published first: its edit lost")

        try b.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .all)
        let copies = b.tree().keys.filter { $0.contains("(conflict from ") }
        #expect(copies.count == 1 && copies.allSatisfy { $0.hasPrefix("doc (conflict from laptop ") }, "\(copies)")
    }

    @Test func theNameStaysWhenNoLongerSet() throws {
        let scratch = Scratch()
        let a = try scratch.devices("a")[0]
        a.deviceName = "laptop"
        try a.restart()
        a.deviceName = nil
        try a.restart()
        a.sync()
        #expect(a.engine.device.name == "laptop")
        #expect(DeviceRecord(path: MirrorLayout(root: a.mirror).deviceFile(a.engine.device.id))?.name == "laptop")
    }

    /// Another device's record holds what its user (or a bad write) put there: a newline,
    /// an escape sequence that would drive the terminal `ubq versions` prints to, a `/`
    /// that would put a conflict copy in another folder.
    @Test func aHostileNameFromAnotherDeviceIsMadeSafe() throws {
        let scratch = Scratch()
        let (a, b) = try scratch.conflictedPair()
        let id = a.engine.device.id
        let path = MirrorLayout(root: a.mirror).deviceFile(id)
        let record = DeviceRecord(id: id, name: "evil\u{1b}[2J\nhost/../x", created: 1)
        try Data(try record.encoded()).write(to: URL(fileURLWithPath: path))

        let versions = try b.engine.versions(container: TestDevice.containerID, path: "Documents/doc.txt")
        #expect(versions.filter { $0.device == id }.allSatisfy { $0.deviceName == "evil?[2J?host-..-x" }, "\(versions.map(\.deviceName))")
        try b.engine.resolve(container: TestDevice.containerID, path: "Documents/doc.txt", keep: .all)
        let copies = b.tree().keys.filter { $0.contains("(conflict from ") }
        #expect(copies.count == 1 && copies.allSatisfy { !$0.contains("/") && !$0.contains("\n") }, "\(copies)")
    }
}
