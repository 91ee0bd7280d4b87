import Foundation
import Testing

@testable import SyncEngine

/// The fsyncs of a batch, issued from several threads.
@Suite struct ConcurrentSyncTests {
    @Test func foldersAreOpenedAsFoldersAndFilesAsFiles() throws {
        let scratch = Scratch()
        let folders = (0..<40).map { "\(scratch.path)/f\($0)" }
        for folder in folders { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let files = folders.map { $0 + "/object" }
        for file in files { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
        try ConcurrentSync.fsync(files, folders: false)
        try ConcurrentSync.fsync(folders, folders: true)
        let error = #expect(throws: SyncError.self, "a file is not a folder") { try ConcurrentSync.fsync(files, folders: true) }
        #expect(error?.code == .system(ENOTDIR), "\(String(describing: error))")
    }

    @Test func aPathThatCannotBeSyncedFailsTheBatchAndIsNamed() throws {
        let scratch = Scratch()
        let files = (0..<40).map { "\(scratch.path)/object\($0)" }
        for file in files.dropLast() { try Data("x".utf8).write(to: URL(fileURLWithPath: file)) }
        let error = #expect(throws: SyncError.self) { try ConcurrentSync.fsync(files, folders: false) }
        #expect(error?.description.contains(files.last!) == true)
        #expect(throws: SyncError.self) { try ConcurrentSync.fsync([scratch.path + "/file"], folders: true) }
    }
}
