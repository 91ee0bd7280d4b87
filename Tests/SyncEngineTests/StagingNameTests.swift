import Foundation
@testable import SyncEngine
import Testing

/// A pass removes the staging files a killed daemon left in the container, and only those:
/// a user's file whose name merely looks like one stays.
@Suite struct StagingNameTests {
    @Test func aLeftoverDownloadGoesAndAUsersLookAlikeStays() throws {
        let scratch = Scratch()
        let (a, _) = try scratch.pair()
        try a.write("doc.txt", "doc")
        let leftover = DurableFile.stagingPath(beside: a.documents + "/doc.txt")
        try Data("half a download".utf8).write(to: URL(fileURLWithPath: leftover))
        try a.write(".ubq-sync-notes.tmp", "my notes")
        try a.write("sub/.ubq-sync-1-2.tmp.tmp", "more notes")
        let report = a.sync()

        #expect(!FileManager.default.fileExists(atPath: leftover), "\(report.problems)")
        #expect(a.read(".ubq-sync-notes.tmp") == "my notes")
        #expect(a.read("sub/.ubq-sync-1-2.tmp.tmp") == "more notes")
    }

    @Test(arguments: [
        (".ubq-sync-1f3a-7.tmp", true), (".ubq-sync-ffffffffffffffff-123456.tmp", true),
        (".ubq-sync-18446744073709551615.tmp", true), (".ubq-sync-42.tmp", true),  // an older daemon's names
        (".ubq-sync-184467440737095516150.tmp", false), (".ubq-sync-1f3a.tmp", false),
        (".ubq-sync-notes.tmp", false), (".ubq-sync-.tmp", false), (".ubq-sync-1f3a-.tmp", false), (".ubq-sync--7.tmp", false),
        (".ubq-sync-1F3A-7.tmp", false), (".ubq-sync-1-2-3.tmp", false), (".ubq-sync-1-2.tmp.tmp", false),
        (".ubq-sync-11111111111111111-1.tmp", false), ("ubq-sync-1-2.tmp", false),
    ])
    func onlyStagingPathsNamesAreStagingNames(_ name: String, _ isStaging: Bool) {
        #expect(DurableFile.isStagingName(Array(name.utf8)) == isStaging)
    }
}
