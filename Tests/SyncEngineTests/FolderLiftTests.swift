import Foundation
import Glibc
@testable import SyncEngine
import Testing

/// `FolderLift` as a daemon that is not root runs it (`asRoot: false`); root can watch the
/// modes change too. `ReadOnlyFolderTests` runs the passes that need it, as another user.
@Suite struct FolderLiftTests {
    let scratch = Scratch()
    var folder: String { scratch.path + "/box" }

    init() throws {
        try FileManager.default.createDirectory(atPath: scratch.path + "/box/inner", withIntermediateDirectories: true)
    }

    private func database() throws -> SyncDatabase { try SyncDatabase(path: scratch.path + "/sync.sqlite") }

    private func mode(_ path: String) -> mode_t { (Sys.lstat(path)?.st_mode ?? 0) & 0o7777 }

    @Test func aReadOnlyFolderIsWritableUntilTheEnd() throws {
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }  // for the scratch folder's removal
        let database = try database()
        let lift = try FolderLift(database: database, asRoot: false)
        try lift.lift([folder, folder + "/inner", scratch.path + "/missing"])

        #expect(mode(folder) == 0o755)
        #expect(mode(folder + "/inner") == 0o755, "left alone: it was writable")
        #expect(try database.liftedFolders().map(\.path.readable) == [folder], "recorded before the change")
        lift.end()
        #expect(mode(folder) == 0o555)
        #expect(try database.liftedFolders().isEmpty)
    }

    @Test func aFolderMadeReadOnlyIsLiftedUntilTheEnd() throws {
        let lift = try FolderLift(database: try database(), asRoot: false)
        let given = try lift.mode(forFolder: folder, synced: 0o500)
        chmod(folder, given)
        defer { chmod(folder, 0o755) }

        #expect(given == 0o700)
        #expect(try lift.mode(forFolder: folder + "/inner", synced: 0o750) == 0o750, "writable: nothing to lift")
        lift.end()
        #expect(mode(folder) == 0o500)
    }

    /// A read-only folder the pass lifted, then made writable by the plan (its mode changed
    /// on another device): it keeps the new mode.
    @Test func aLiftedFolderMadeWritableKeepsItsNewMode() throws {
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        let lift = try FolderLift(database: try database(), asRoot: false)
        try lift.lift([folder])
        chmod(folder, try lift.mode(forFolder: folder, synced: 0o755))  // the lifted mode too
        lift.end()
        #expect(mode(folder) == 0o755)
    }

    /// A crash after a lifted folder's new synced mode was recorded, before or after its
    /// chmod: the next pass gives it that mode, not the lifted one (which the next scan
    /// would publish as the user's). Found in review.
    @Test(arguments: [false, true])
    func aCrashAroundANewModeLeavesTheNewMode(chmodded: Bool) throws {
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        let lift = try FolderLift(database: try database(), asRoot: false)
        try lift.lift([folder])
        let given = try lift.mode(forFolder: folder, synced: 0o500)  // changed elsewhere meanwhile
        if chmodded { chmod(folder, given) }

        _ = try FolderLift(database: try database(), asRoot: false)
        #expect(mode(folder) == 0o500)
    }

    /// A crash between the lift and `end`: the next pass's lift puts the mode back, unless
    /// someone changed it since (then it is theirs).
    @Test func aCrashedPassesLiftIsPutBackByTheNext() throws {
        chmod(folder, 0o555)
        chmod(folder + "/inner", 0o555)
        defer { chmod(folder, 0o755) }
        try FolderLift(database: try database(), asRoot: false).lift([folder, folder + "/inner"])  // never ended
        chmod(folder + "/inner", 0o777)  // the user's, after the crash

        let next = try FolderLift(database: try database(), asRoot: false)
        #expect(mode(folder) == 0o555)
        #expect(mode(folder + "/inner") == 0o777)
        #expect(try database().liftedFolders().isEmpty)
        next.end()
    }

    @Test func rootLiftsNothing() throws {
        chmod(folder, 0o555)
        let lift = try FolderLift(database: try database(), asRoot: true)
        defer { chmod(folder, 0o755) }
        try lift.lift([folder])
        #expect(mode(folder) == 0o555)
        #expect(try lift.mode(forFolder: folder, synced: 0o555) == 0o555)
    }
}
