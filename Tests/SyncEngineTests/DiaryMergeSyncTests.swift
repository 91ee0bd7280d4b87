import Diary
import Foundation
import KeyedArchive
@testable import SyncEngine
import Testing

@Suite("Diary conflicts are merged, not forked")
struct DiaryMergeSyncTests {
    static let day: ReferenceDate = ReferenceDate(secondsSince2001: 800_000_000)

    private func entry(_ id: String, _ title: String, _ body: String) -> DiaryEntry {
        DiaryEntry(id: id, title: title, body: body, created: Self.day, modified: Self.day)
    }

    private func writeDiary(_ device: TestDevice, _ entries: [DiaryEntry]) throws {
        try Data(DiaryArchive.encode(entries)).write(to: URL(fileURLWithPath: device.documents + "/Diary.archive"))
    }

    private func readDiary(_ device: TestDevice) throws -> [DiaryEntry] {
        try DiaryArchive.decode(Array(try Data(contentsOf: URL(fileURLWithPath: device.documents + "/Diary.archive"))))
    }

    /// Also where the base keeps no signature of the diary (each pass reads it a moment
    /// after it changed): the merge then reads the file to know it is still the base's.
    @Test(arguments: [LocalSignature.racyWindowNanoseconds, 3_600_000_000_000])
    func editsOfDifferentEntriesOnTwoDevicesMergeCleanly(racyWindow: Int64) throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        for device in devices { device.engine.racyWindowNanoseconds = racyWindow }
        let one = entry("11111111-1111-4111-8111-111111111111", "Monday", "rain")
        let two = entry("22222222-2222-4222-8222-222222222222", "Tuesday", "sun")
        try writeDiary(a, [one, two])
        a.sync()
        b.sync()
        var editedOnA = one
        editedOnA.body = "rain, then a rainbow"
        let added = entry("33333333-3333-4333-8333-333333333333", "Wednesday", "wind")
        try writeDiary(a, [editedOnA, two])
        var editedOnB = two
        editedOnB.title = "Tuesday at the beach"
        try writeDiary(b, [one, editedOnB, added])
        a.sync()
        b.sync()
        a.sync()
        b.sync()
        let merged = try readDiary(a)
        #expect(try readDiary(b) == merged)
        #expect(merged.map(\.title) == ["Monday", "Tuesday at the beach", "Wednesday"])
        #expect(merged.first?.body == "rain, then a rainbow")
        #expect(a.engine.conflicts().isEmpty, "a clean merge leaves no conflict version")
        #expect(b.engine.conflicts().isEmpty)
    }

    @Test func aClashOnOneFieldKeepsBothValuesInTheDiary() throws {
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b")
        let (a, b) = (devices[0], devices[1])
        let one = entry("11111111-1111-4111-8111-111111111111", "Monday", "rain")
        try writeDiary(a, [one])
        a.sync()
        b.sync()
        var onA = one
        onA.body = "written on a"
        var onB = one
        onB.body = "written on b"
        try writeDiary(a, [onA])
        try writeDiary(b, [onB])
        a.sync()
        b.sync()
        a.sync()
        b.sync()
        let merged = try readDiary(a)
        #expect(try readDiary(b) == merged)
        #expect(Set(merged.map(\.body)) == ["written on a", "written on b"])
        #expect(merged.contains { $0.title == "Monday (conflict)" })
        #expect(a.engine.conflicts().isEmpty)
    }
}
