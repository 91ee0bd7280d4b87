import Foundation
import Testing

/// `ubq ls` options against a small known tree.
@Suite(.serialized) struct QueryTests {
    func populated() throws -> DaemonHarness {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("printf 'Straße und Café\\n' > Café.txt && printf '{\\\"a\\\": 1}' > data.json && head -c 5000 /dev/zero > blob.bin && mkdir Notes && printf 'meeting notes\\n' > Notes/Meeting.md")
        try daemon.shell("mkdir -p ../Library && echo private > ../Library/prefs.plist")
        return daemon
    }

    func names(_ daemon: DaemonHarness, _ arguments: [String]) throws -> [String] {
        let result = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName"] + arguments)
        guard result.status == 0 else { throw HarnessError("ubq ls \(arguments) failed: \(result.errorText)") }
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: String]]).compactMap { $0["kMDItemFSName"] }
    }

    @Test func predicatesInBothSyntaxesWithModifiers() throws {
        let daemon = try populated()
        #expect(try names(daemon, [#"kMDItemFSName BEGINSWITH[cd] "cafe""#]) == ["Café.txt"])
        #expect(try names(daemon, [#"kMDItemFSName == "*.TXT"cd"#]) == ["Café.txt"])
        #expect(try names(daemon, [#"NSMetadataItemFSSizeKey > 4096 AND kMDItemFSName ENDSWITH ".bin""#]) == ["blob.bin"])
        #expect(try names(daemon, [#"kMDItemContentTypeTree == "public.text" AND NOT kMDItemFSName CONTAINS "Caf""#]).sorted() == ["Meeting.md", "data.json"])
        #expect(try names(daemon, [#"kMDItemFSName IN {"data.json", "blob.bin"}"#]).sorted() == ["blob.bin", "data.json"])
        #expect(try names(daemon, ["kMDItemFSSize BETWEEN {1, 20}"]).sorted() == ["Meeting.md", "data.json", "Café.txt"].sorted())
        // Full text folds case and diacritics (FTS5 unicode61), word by word.
        #expect(try names(daemon, [#"kMDItemTextContent CONTAINS "CAFE""#]) == ["Café.txt"])
        #expect(try names(daemon, [#"kMDItemTextContent CONTAINS "meeting""#]) == ["Meeting.md"])
    }

    @Test func scopesContainersSortAndLimit() throws {
        let daemon = try populated()
        #expect(try names(daemon, ["--scope", "data"]).sorted() == ["Library", "prefs.plist"])
        #expect(try names(daemon, ["--scope", "all"]).count == 7)
        #expect(try names(daemon, ["--container", "iCloud.org.ubiquity.Default", "--sort", "kMDItemFSName"]) == ["Café.txt", "Meeting.md", "Notes", "blob.bin", "data.json"])
        #expect(try names(daemon, ["--sort", "-kMDItemFSSize", "--limit", "2"]) == ["blob.bin", "Notes"])
        #expect(try names(daemon, ["--container", "iCloud.com.example.Nothing"]).isEmpty)
    }

    @Test func containersAreListedWithTheirFolders() throws {
        let daemon = try populated()
        try FileManager.default.createDirectory(atPath: daemon.root + "/iCloud~com~example~Diary/Documents", withIntermediateDirectories: true)
        let result = try daemon.ubq(["containers", "--json"])
        let containers = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]])
        let ids = containers.compactMap { $0["id"] as? String }
        #expect(ids == ["iCloud.com.example.Diary", "iCloud.org.ubiquity.Default"])
        let diary = try #require(containers.first)
        #expect(diary["url"] as? String == daemon.root + "/iCloud~com~example~Diary")
        #expect(diary["documents"] as? String == daemon.root + "/iCloud~com~example~Diary/Documents")
    }

    @Test func mdlsPrintsEveryAttribute() throws {
        let daemon = try populated()
        let result = try daemon.ubq(["mdls", "--json", daemon.documents + "/Café.txt"])
        let attributes = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(attributes["kMDItemContentType"] as? String == "public.plain-text")
        #expect((attributes["kMDItemContentTypeTree"] as? [String])?.contains("public.text") == true)
        #expect(attributes["NSMetadataUbiquitousItemDownloadingStatusKey"] as? String == "NSMetadataUbiquitousItemDownloadingStatusCurrent")
        #expect(attributes["NSMetadataUbiquitousItemIsUploadedKey"] as? Bool == false)
        #expect(attributes["kMDItemFSSize"] as? Int == 18)
        let missing = try daemon.ubq(["mdls", daemon.documents + "/nope"])
        #expect(missing.status == 1)
    }

    @Test func explainShowsBoundParameters() throws {
        let daemon = try populated()
        let result = try daemon.ubq(["ls", "--explain", #"kMDItemFSName == "x'; DROP TABLE items; --""#])
        #expect(result.text.contains("?"))
        #expect(!result.text.contains("WHERE items.fs_name = 'x'"))
        #expect(try names(daemon, []).count == 5)
    }
}

@Suite(.serialized) struct IgnoreFileTests {
    @Test func ubqignoreHidesAndRestoresItemsAsItChanges() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("mkdir build && echo x > build/out.o && echo y > keep.txt && echo z > scratch.log")
        #expect(try daemon.indexedItems().count == 4)
        try daemon.shell("printf 'build/\\n*.log\\n' > ../.ubqignore")
        let hidden = try daemon.indexedItems(predicate: nil)
        #expect(Set(hidden.keys.map { URL(fileURLWithPath: $0).lastPathComponent }) == ["keep.txt", ".ubqignore"])
        try daemon.shell("rm ../.ubqignore")
        #expect(try daemon.indexedItems().count == 4)
    }
}
