import Diary
import Foundation
import Glibc
import Testing
@testable import Ubiquity

/// A failing save sets `savingError`, throws an error naming the file and the call, and
/// leaves the old file byte for byte as it was, with no temporary file behind.
@Suite struct AtomicSaveTests {
    /// A system call of the save that fails (tests run as root, so permissions cannot make
    /// one fail; the writer's seam does, deterministically).
    enum FailingCall: String, CaseIterable, CustomTestStringConvertible {
        case writeHalfThenDiskFull, fsync, rename
        var testDescription: String { rawValue }

        var system: AtomicFile.System {
            var system = AtomicFile.System.live
            switch self {
            case .writeHalfThenDiskFull:
                let written = WrittenBytes()
                system.write = { descriptor, buffer in
                    guard written.take(buffer.count) else {
                        errno = ENOSPC
                        return -1
                    }
                    return Glibc.write(descriptor, buffer.baseAddress, max(1, buffer.count / 2))
                }
            case .fsync: system.fsync = { _ in errno = EIO; return -1 }
            case .rename: system.rename = { _, _ in errno = EXDEV; return -1 }
            }
            return system
        }

        var expected: (syscall: String, errno: Int32) {
            switch self {
            case .writeHalfThenDiskFull: ("write", ENOSPC)
            case .fsync: ("fsync", EIO)
            case .rename: ("rename", EXDEV)
            }
        }
    }

    @Test(arguments: FailingCall.allCases)
    func aFailedSaveKeepsTheOldFileAndSetsSavingError(failing call: FailingCall) async throws {
        let sandbox = try DocumentSandbox()
        let before = try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        diary.add(Samples.third)
        diary.fileWriter = AtomicFile(system: call.system)

        let error = await #expect(throws: DocumentError.self) { try await diary.save(to: sandbox.diaryURL, for: .forOverwriting) }
        #expect(error?.syscall == call.expected.syscall)
        #expect(error?.errno == call.expected.errno)
        #expect(error?.message.contains(sandbox.diaryURL.path) == true)
        #expect(diary.documentState == .savingError)
        #expect(diary.hasUnsavedChanges)
        #expect(try Data(contentsOf: sandbox.diaryURL) == before)
        #expect(try sandbox.names() == [DiaryDocument.fileName])

        diary.fileWriter = AtomicFile()
        try await diary.close()  // saves the unsaved change now that the disk works
        #expect(diary.documentState == .closed)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: sandbox.diaryURL))) == [Samples.first, Samples.third])
    }

    @Test func aCloseWhoseSaveFailsKeepsTheDocumentOpen() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        diary.add(Samples.second)
        diary.fileWriter = AtomicFile(system: FailingCall.fsync.system)
        await #expect(throws: DocumentError.self) { try await diary.close() }
        #expect(diary.documentState == .savingError)
        #expect(diary.entries.count == 2)
    }

    @Test func savingWhereTheFolderWasReplacedByAFileFailsAndKeepsTheOriginal() async throws {
        let sandbox = try DocumentSandbox()
        let before = try await sandbox.writeDiary([Samples.first])
        let diary = sandbox.diary()
        try await diary.open()
        let folder = sandbox.root.appendingPathComponent("Exports")
        try Data("a file, not a folder".utf8).write(to: folder)
        let error = await #expect(throws: DocumentError.self) {
            try await diary.save(to: folder.appendingPathComponent("Diary.archive"), for: .forCreating)
        }
        #expect(error?.errno == ENOTDIR)
        #expect(error?.message.contains("is a file, not a folder") == true)
        #expect(diary.documentState == .savingError)
        #expect(diary.fileURL == sandbox.diaryURL)
        #expect(try Data(contentsOf: sandbox.diaryURL) == before)
    }

    @Test func aNameAtTheLengthLimitSavesAndALongerOneFailsWithAHint() async throws {
        let sandbox = try DocumentSandbox()
        let longest = sandbox.documents.appendingPathComponent(String(repeating: "d", count: 248) + ".diary")
        try await sandbox.writeDiary([Samples.second], at: longest)
        #expect(try DiaryArchive.decode(Array(Data(contentsOf: longest))) == [Samples.second])

        let tooLong = sandbox.documents.appendingPathComponent(String(repeating: "e", count: 250) + ".diary")
        let diary = sandbox.diary(at: tooLong)
        let error = await #expect(throws: DocumentError.self) { try await diary.save(to: tooLong, for: .forCreating) }
        #expect(error?.errno == ENAMETOOLONG)
        #expect(error?.message.contains("shorter file name") == true)
        #expect(try sandbox.names() == [longest.lastPathComponent])
    }

    @Test func anOverwriteKeepsTheFilePermissions() async throws {
        let sandbox = try DocumentSandbox()
        try await sandbox.writeDiary([Samples.first])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: sandbox.diaryURL.path)
        let diary = sandbox.diary()
        try await diary.open()
        diary.add(Samples.second)
        try await diary.save(to: sandbox.diaryURL, for: .forOverwriting)
        let mode = try FileManager.default.attributesOfItem(atPath: sandbox.diaryURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func temporaryNamesStayShortAndAreIgnoredByTheDaemon() {
        let name = AtomicFile.temporaryName(for: String(repeating: "日", count: 200))
        #expect(name.utf8.count <= 100 + 14)
        #expect(name.hasPrefix(".") && name.hasSuffix(".tmp"))
    }
}

/// Lets the first write through (half of it), then fails the next.
final class WrittenBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0

    func take(_ count: Int) -> Bool {
        lock.withLock {
            calls += 1
            return calls == 1
        }
    }
}
