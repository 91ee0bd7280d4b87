import Foundation
import Glibc
import Testing

/// Names and links a user (or an attacker) can create must be indexed and printed safely,
/// never followed out of the container, never crash the daemon.
@Suite(.serialized) struct HostileInputTests {
    static let hostileNames: [[UInt8]] = [
        Array("line\nbreak.txt".utf8),
        [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x2E, 0x74, 0x78, 0x74],  // "bad\xFF\xFE.txt": not UTF-8
        Array(String(repeating: "n", count: 251).utf8) + Array(".txt".utf8),  // 255 bytes
        Array("-rf --help.txt".utf8),
        Array("tab\tand\u{1B}[31mescape.txt".utf8),
    ]

    func create(_ name: [UInt8], in folder: String) throws {
        let path = Array(folder.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        guard fd >= 0 else { throw HarnessError("cannot create a hostile name: \(String(cString: strerror(errno)))") }
        _ = write(fd, "x", 1)
        close(fd)
    }

    @Test func hostileNamesAreListedByteExactWithPrint0() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        for name in Self.hostileNames { try create(name, in: daemon.documents) }
        let listed = try daemon.ubq(["ls", "-0"])
        #expect(listed.status == 0)
        let paths = Set(listed.output.split(separator: 0).map { Array($0) })
        let expected = Set(Self.hostileNames.map { Array(daemon.documents.utf8) + [0x2F] + $0 })
        #expect(paths == expected)
    }

    @Test func hostileNamesGiveValidJSONAndASafeTable() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        for name in Self.hostileNames { try create(name, in: daemon.documents) }
        let json = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName"])
        let items = try #require(try JSONSerialization.jsonObject(with: json.output) as? [[String: String]])
        #expect(items.count == Self.hostileNames.count)
        #expect(items.contains { $0["kMDItemFSName"] == "line\nbreak.txt" })
        #expect(items.contains { $0["kMDItemFSName"] == "bad\u{FFFD}\u{FFFD}.txt" })
        let table = try daemon.ubq(["ls", "--attrs", "kMDItemFSName"])
        #expect(!table.text.contains("\u{1B}"))
        #expect(table.text.split(separator: "\n").count == Self.hostileNames.count + 1)
    }

    /// A name that is not UTF-8, typed on the command line (the shell passes its bytes):
    /// `ubq mdls` describes that file, and `ubq coordinate` hands its command that name,
    /// not one with U+FFFD in place of the bad byte.
    @Test func aNameThatIsNotUTF8ReachesMdlsAndCoordinateByteExact() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try create(Array("caf".utf8) + [0xE9] + Array(".txt".utf8), in: daemon.documents)  // Latin-1 "café.txt"
        let ubq = DaemonHarness.binaries + "/ubq"

        let described = try daemon.shell(#"name=$(printf 'caf\351.txt'); "$1" mdls --json "$name""#.replacingOccurrences(of: "$1", with: ubq))
        let attributes = try #require(try JSONSerialization.jsonObject(with: described.output) as? [String: Any], "\(described.errorText)")
        #expect(attributes["kMDItemFSSize"] as? Int == 1)

        let script = #"name=$(printf 'caf\351.txt'); UBQ --write "$name" -- sh -c 'printf y >> "$0"' "$name""#
        _ = try daemon.shell(script.replacingOccurrences(of: "UBQ", with: ubq + " coordinate"))
        let names = try FileManager.default.contentsOfDirectory(atPath: daemon.documents)
        #expect(names.count == 1, "no second file under a mangled name: \(names)")
        let bytes = Array(daemon.documents.utf8) + [0x2F] + Array("caf".utf8) + [0xE9] + Array(".txt".utf8) + [0]
        var status = stat()
        #expect(bytes.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) } } == 0)
        #expect(status.st_size == 2, "the command appended to the file named")
    }

    /// A claim is on the name's bytes: two Latin-1 names that a URL would make one ("caf\u{E9}"
    /// and "caf\u{E8}" both become "caf\u{FFFD}" in Foundation's URL) are claimed apart, and
    /// a name claimed twice excludes itself.
    @Test func aClaimOnANameThatIsNotUTF8LocksThatNameOnly() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let inner = #"UBQ --write --timeout 0.3 "$0" -- true; echo other=$?; UBQ --write --timeout 0.3 "$1" -- true; echo same=$?"#
        let script = #"a=$(printf 'caf\351.txt'); b=$(printf 'caf\350.txt'); UBQ --write "$a" -- sh -c 'INNER' "$b" "$a""#
            .replacingOccurrences(of: "INNER", with: inner)
            .replacingOccurrences(of: "UBQ", with: DaemonHarness.binaries + "/ubq coordinate")
        let result = try daemon.shell(script)
        #expect(result.text == "other=0\nsame=75\n", "\(result.text) \(result.errorText)")
    }

    /// A name sync cannot carry is neither uploaded nor uploading, and says why, as an
    /// NSMetadataQuery would show an upload error; other names sync.
    @Test func aNameThatIsNotUTF8CarriesItsUploadingError() throws {
        let shared = SharedMirror()
        let daemon = shared.add(try DaemonHarness())
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        for name in Self.hostileNames { try create(name, in: daemon.documents) }
        try daemon.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        #expect(try daemon.ubq(["sync"]).status == 1, "one item is not synced")

        let attributes = "kMDItemFSName,NSMetadataUbiquitousItemIsUploadedKey,NSMetadataUbiquitousItemUploadingErrorKey"
        let listed = try daemon.ubq(["ls", "--json", "--attrs", attributes])
        let items = try #require(try JSONSerialization.jsonObject(with: listed.output) as? [[String: Any]], "\(listed.errorText)")
        let bad = try #require(items.first { $0["kMDItemFSName"] as? String == "bad\u{FFFD}\u{FFFD}.txt" })
        #expect((bad["NSMetadataUbiquitousItemUploadingErrorKey"] as? String)?.contains("is not valid UTF-8; rename it") == true, "\(bad)")
        #expect(bad["NSMetadataUbiquitousItemIsUploadedKey"] as? Bool == false)
        let others = items.filter { $0["kMDItemFSName"] as? String != "bad\u{FFFD}\u{FFFD}.txt" }
        #expect(others.count == Self.hostileNames.count - 1)
        #expect(others.allSatisfy { $0["NSMetadataUbiquitousItemIsUploadedKey"] as? Bool == true }, "\(others)")
    }

    /// What ubq says about a named item, on either stream, shows the name escaped: an escape
    /// sequence in it does not act on the terminal.
    @Test func messagesAboutAHostileNameCannotActOnTheTerminal() throws {
        let shared = SharedMirror()
        let daemon = shared.add(try DaemonHarness())
        try daemon.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        let name = Self.hostileNames[4]  // "tab\tand\u{1B}[31mescape.txt"
        try create(name, in: daemon.documents)
        #expect(try daemon.ubq(["sync"]).status == 0)
        let path = daemon.documents + "/" + String(decoding: name, as: UTF8.self)

        let resolved = try daemon.ubq(["resolve", path, "--keep", "current"])
        #expect(resolved.status == 0, "\(resolved.errorText)")
        let refused = try daemon.ubq(["restore", path, "--version", "0000000000000000:99"])
        #expect(refused.status != 0)
        for shown in [resolved.text, refused.errorText] {
            #expect(shown.contains("and\\u{1b}[31mescape.txt") && !shown.contains("\u{1B}"), "\(shown.debugDescription)")
        }
    }

    /// A container folder that is a link (moved to another disk) is not followed out of
    /// the root, and ubqd says so, naming the fix, rather than skip it without a word.
    @Test func aContainerFolderThatIsALinkIsNamedAtStart() throws {
        let daemon = try DaemonHarness()
        let elsewhere = daemon.base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere + "/Documents", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: daemon.root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: daemon.root + "/iCloud~com~example~Moved", withDestinationPath: elsewhere)
        try daemon.start()
        #expect(daemon.log().contains("iCloud~com~example~Moved is a symbolic link, which ubqd does not follow out of the root"), "\(daemon.log())")
        #expect(try !daemon.ubq(["containers"]).text.contains("iCloud.com.example.Moved"))
    }

    /// File times Int64 nanoseconds cannot count (past 2262-04-11) took ubqd down at start,
    /// for as long as such a file stayed: now it is indexed and synced like any other.
    @Test func filesDatedFarAheadOrLongAgoAreIndexedAndSynced() throws {
        let shared = SharedMirror()
        let daemon = shared.add(try DaemonHarness())
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        _ = try CommandResult.run("/bin/sh", ["-c", "echo a > future.txt && touch -d 2400-01-01 future.txt && echo b > past.txt && touch -d 1950-01-01 past.txt"],
                                  environment: daemon.environment, directory: daemon.documents)
        try daemon.start(extraEnvironment: ["UBQ_MIRROR": shared.path])

        let listed = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName,kMDItemFSContentChangeDate"])
        #expect(listed.status == 0, "\(listed.errorText)")
        #expect(listed.text.contains("2400-01-01") && listed.text.contains("1950-01-01"), "\(listed.text)")
        #expect(try daemon.ubq(["sync"]).status == 0)
        let status = try daemon.ubq(["status", "--json"]).text
        #expect(!status.contains("problems\":[\""), "\(status)")
        #expect(daemon.process?.isRunning == true)
    }

    /// XFS, Btrfs and tmpfs take a sparse file of 2^63 - 1 bytes; its size in sums took
    /// ubqd down in the index's content reading, at every start. Here on tmpfs, the root
    /// being a link to a folder in /dev/shm.
    @Test(.enabled(if: FileManager.default.isWritableFile(atPath: "/dev/shm"), "needs a tmpfs at /dev/shm"))
    func aSparseFileOfTheLargestSizeIsIndexed() throws {
        let daemon = try DaemonHarness()
        let real = "/dev/shm/ubq-largest-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: real + "/iCloud~org~ubiquity~Default/Documents", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: real) }
        try FileManager.default.createSymbolicLink(atPath: daemon.root, withDestinationPath: real)
        _ = try daemon.shell("echo small > small.txt && echo other > other.txt && truncate -s 9223372036854775807 huge.txt && truncate -s 9223372036854775807 huge.bin")
        try daemon.start()

        let listed = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName,kMDItemFSSize"])
        #expect(listed.status == 0, "\(listed.errorText)")
        #expect(listed.text.contains("9223372036854775807"), "\(listed.text)")
        #expect(daemon.process?.isRunning == true, "\(daemon.log().suffix(2_000))")
    }

    /// Settings from the environment are checked for range: an idle timeout past what a
    /// Duration's nanoseconds hold trapped ubqd at start.
    @Test func aHugeIdleTimeoutIsTakenAsADay() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["UBQ_IDLE_TIMEOUT": "1e300"])
        #expect(try daemon.ubq(["status"]).status == 0)
        #expect(daemon.log().contains("idle ones closed after 86400.0 seconds"), "\(daemon.log().prefix(3_000))")
    }

    @Test(arguments: ["nan", "inf", "1e300", "1e10"])
    func ubqCoordinateRefusesATimeoutNoOneMeans(_ timeout: String) throws {
        let daemon = try DaemonHarness()
        try FileManager.default.createDirectory(atPath: daemon.documents, withIntermediateDirectories: true)
        let result = try daemon.ubq(["coordinate", "--write", "--timeout", timeout, daemon.documents + "/x.txt", "--", "true"])
        #expect(result.status == 64, "\(result.status): \(result.errorText)")
        #expect(result.errorText.contains("--timeout takes seconds from 0"), "\(result.errorText)")
    }

    @Test func symlinksAreRecordedAndNeverFollowed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        try daemon.shell("ln -s / escape && ln -s /etc/hostname host-link && ln -s missing dangling && mkdir real && echo x > real/f")
        let items = try daemon.indexedItems()
        #expect(items.count == 5)
        #expect(!items.keys.contains { $0.hasPrefix(daemon.documents + "/escape/") })
        let links = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName", #"kMDItemContentType == "public.symlink""#])
        let names = try #require(try JSONSerialization.jsonObject(with: links.output) as? [[String: String]]).compactMap { $0["kMDItemFSName"] }
        #expect(Set(names) == ["escape", "host-link", "dangling"])
    }

    @Test func malformedPredicateShowsWhereAndWhat() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let result = try daemon.ubq(["ls", #"kMDItemFSName == "a" AND"#])
        #expect(result.status == 1)
        #expect(result.errorText.contains("^"))
        #expect(result.errorText.lowercased().contains("expected"))
        #expect(try daemon.ubq(["status"]).status == 0)
    }

    @Test func ubqSaysHowToStartTheDaemonWhenItIsNotRunning() throws {
        let daemon = try DaemonHarness()
        let result = try daemon.ubq(["ls"])
        #expect(result.status == 69)
        #expect(result.errorText.contains("ubqd is not running"))
        #expect(result.errorText.contains("systemctl --user start ubqd"))
    }
}

/// When inotify runs out of watches, the unwatched folders are polled, the log says how to
/// raise the limit, and queries still see every completed change.
@Suite(.serialized) struct WatchLimitTests {
    @Test func foldersBeyondTheWatchLimitArePolledAndStillExact() throws {
        let daemon = try DaemonHarness()
        try daemon.start(extraEnvironment: ["UBQ_WATCH_LIMIT": "4"])
        try daemon.shell("mkdir -p deep/er/est && echo a > deep/er/est/f && echo b > deep/g")
        try daemon.expectIndexMatchesDisk()
        try daemon.shell("echo changed > deep/er/est/f && rm deep/g && echo c > deep/er/h")
        try daemon.expectIndexMatchesDisk()
        #expect(daemon.log().contains("sysctl fs.inotify.max_user_watches="))
        let status = try daemon.ubq(["status", "--json"])
        let polled = try #require(try JSONSerialization.jsonObject(with: status.output) as? [String: Any])["polledFolders"] as? Int
        #expect((polled ?? 0) > 0)
    }
}

/// inotify takes a path of at most PATH_MAX (4096 bytes), but a tree can go deeper (made
/// with relative calls, as `mkdir` then `cd` does here, or moved in whole). Changes below
/// that depth are still seen by queries, and the index does not fail on such a path.
@Suite(.serialized) struct DeepTreeTests {
    static let level = String(repeating: "d", count: 200)
    /// `cd` into the deepest folder a step at a time: one `cd` of the whole path is too long.
    static let descend = "for i in $(seq 25); do cd \(level); done"

    @Test func changesBelowTheDepthInotifyReachesAreIndexed() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        // 25 levels of 201 bytes: the deepest five are past PATH_MAX whatever the root.
        try daemon.shell("for i in $(seq 25); do mkdir \(Self.level) && cd \(Self.level); done; echo a > first.txt")
        #expect(try Self.names(daemon) == ["first.txt"])
        try daemon.shell("\(Self.descend); echo b > second.txt; rm first.txt")
        #expect(try Self.names(daemon) == ["second.txt"])

        #expect(daemon.log().contains("inotify takes 4096"), "the log names the folder it cannot watch")
        #expect(!daemon.log().contains("indexing failed"), "a rescan too deep to start at starts above: \(daemon.log().suffix(600))")
        let status = try #require(try JSONSerialization.jsonObject(with: try daemon.ubq(["status", "--json"]).output) as? [String: Any])
        #expect(status["indexError"] == nil && (status["polledFolders"] as? Int ?? 0) > 0, "\(status)")
    }

    /// The names of the `.txt` files the index holds.
    private static func names(_ daemon: DaemonHarness) throws -> [String] {
        let result = try daemon.ubq(["ls", "--json", "--attrs", "kMDItemFSName", #"kMDItemFSName LIKE "*.txt""#])
        guard result.status == 0 else { throw HarnessError("ubq ls failed: \(result.errorText)") }
        let items = try #require(try JSONSerialization.jsonObject(with: result.output) as? [[String: String]])
        return items.compactMap { $0["kMDItemFSName"] }.sorted()
    }
}
