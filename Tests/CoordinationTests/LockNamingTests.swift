import Foundation
import Testing
@testable import Coordination

/// Lock file naming, canonical paths, hostile names and the records kept in lock files.
@Suite("Lock names and records")
struct LockNamingTests {
    @Test("a path and its ancestors get stable, distinct lock names, root first")
    func namesOfAncestors() {
        let path = ItemPath(canonicalBytes: Array("/home/u/Documents/diary".utf8))
        let names = LockName.names(forPathAndAncestors: path)
        #expect(names.count == 5)
        #expect(Set(names).count == 5)
        #expect(names[0] == LockName(path: ItemPath(canonicalBytes: Array("/".utf8))))
        #expect(names[2] == LockName(path: ItemPath(canonicalBytes: Array("/home/u".utf8))))
        #expect(names.last == LockName(path: path))
        #expect(names.last?.description.count == 32 + 5)
        #expect(names.allSatisfy { $0.description.allSatisfy { "0123456789abcdef.lock".contains($0) } })
    }

    @Test("two spellings of one item canonicalize to one path", arguments: [
        "a/./b/../x", "a//x", "c/../a/x/",
    ])
    func canonicalization(_ spelling: String) throws {
        let sandbox = try Sandbox()
        let spelled = try ItemPath(raw: Array((sandbox.documents.path + "/" + spelling).utf8), resolvingFinalLink: false)
        let plain = try ItemPath(url: sandbox.url("a/x"), resolvingFinalLink: false)
        #expect(spelled == plain)
    }

    /// The kernel resolves `l/..` physically: with `l` a link to `e/f/g`, `l/../x` is `e/f/x`.
    /// Applying `..` first, lexically, would lock the folder holding `l` instead, and two
    /// writers of `e/f/x` would not exclude each other.
    @Test("`..` after a linked folder leads where the kernel goes")
    func parentOfLinkIsPhysical() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.url("e/f/g"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: sandbox.url("l"), withDestinationURL: sandbox.url("e/f/g"))
        let target = try ItemPath(url: sandbox.url("e/f/x"), resolvingFinalLink: false)
        for spelling in ["l/../x", "l/../x/", "l/../../f/x", "l/missing/../../x"] {
            let raw = Array((sandbox.documents.path + "/" + spelling).utf8)
            #expect(try ItemPath(raw: raw, resolvingFinalLink: false) == target, "\(spelling)")
            #expect(try ItemPath(raw: raw, resolvingFinalLink: true) == target, "\(spelling)")
        }
        let parentItself = Array((sandbox.documents.path + "/l/..").utf8)
        #expect(try ItemPath(raw: parentItself, resolvingFinalLink: false) == (try ItemPath(url: sandbox.url("e/f"), resolvingFinalLink: false)))
    }

    /// One claim on several items resolves each folder once (`ResolvedFolders`): every
    /// item must come out as it does alone, through a linked folder, a missing one, `..`,
    /// a link as the item itself (not followed) and the root's own children.
    @Test("items resolved together canonicalize as each does alone")
    func sharedFolderResolution() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.url("real/sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: sandbox.url("linked"), withDestinationURL: sandbox.url("real"))
        try FileManager.default.createSymbolicLink(at: sandbox.url("real/item-link"), withDestinationURL: sandbox.url("real/sub"))
        let spellings = [
            "linked/x", "linked/y", "real/x", "linked/sub/../x", "missing/deeper/x", "missing/deeper/y", "linked/item-link",
            "real/item-link",
        ].map { sandbox.documents.path + "/" + $0 } + ["/", "/tmp", "/tmp/x"]
        var folders = ItemPath.ResolvedFolders()
        for spelling in spellings {
            let together = try ItemPath(raw: Array(spelling.utf8), resolvingFinalLink: false, folders: &folders)
            let alone = try ItemPath(raw: Array(spelling.utf8), resolvingFinalLink: false)
            #expect(together == alone, "\(spelling)")
        }
        let throughLink = try ItemPath(raw: Array((sandbox.documents.path + "/linked/x").utf8), resolvingFinalLink: false, folders: &folders)
        #expect(throughLink == (try ItemPath(url: sandbox.url("real/x"), resolvingFinalLink: false)))
    }

    @Test("items that do not exist yet are claimed under their resolved parent")
    func missingItems() throws {
        let sandbox = try Sandbox()
        let path = try ItemPath(url: sandbox.url("new/deeper/file"), resolvingFinalLink: true)
        #expect(path.description.hasSuffix("/Documents/new/deeper/file"))
    }

    static let hostileNames: [[UInt8]] = [
        Array("line\nbreak".utf8), Array("tab\tand space %20".utf8), [0x66, 0xff, 0xfe, 0x80, 0x67],
        Array("ünïcødé 📔".utf8), Array(repeating: UInt8(ascii: "n"), count: 255),
    ]

    @Test("hostile names can be claimed and exclude only themselves", arguments: hostileNames)
    func hostileNameClaims(_ name: [UInt8]) throws {
        let sandbox = try Sandbox()
        var deep = Array(sandbox.documents.path.utf8)
        for _ in 0..<20 { deep += [UInt8(ascii: "/")] + Array(repeating: UInt8(ascii: "d"), count: 200) }
        for parent in [Array(sandbox.documents.path.utf8), deep] {
            let path = try ItemPath(raw: parent + [UInt8(ascii: "/")] + name, resolvingFinalLink: false)
            #expect(path.bytes.suffix(name.count).elementsEqual(name))
            let coordinator = try FileCoordinator(lockDirectory: sandbox.locks)
            let writing = try coordinator.makeClaim(LockPlan(items: [(path, .writing([]))]))
            let sibling = try ItemPath(raw: parent + Array("/other".utf8), resolvingFinalLink: false)
            #expect(try writing.advance())
            #expect(try !coordinator.makeClaim(LockPlan(items: [(path, .reading([]))])).advance())
            #expect(try coordinator.makeClaim(LockPlan(items: [(sibling, .writing([]))])).advance())
            let holders = try coordinator.makeClaim(LockPlan(items: [(path, .reading([]))]))
            _ = try holders.advance()
            let named = holders.blockingHolders().map(\.path)
            #expect(named.count == 1)
            #expect(named.allSatisfy { ItemPath.display(path.bytes).hasPrefix($0) && $0.count > 40 })  // records keep ≤ 200 bytes
            writing.release()
        }
    }

    @Test("a holder record survives any path and command", arguments: hostileNames)
    func holderRecordRoundTrip(_ name: [UInt8]) {
        let record = HolderRecord(
            pid: 4242, exclusive: true, access: .writing, sinceNanoseconds: 1_763_800_000_123_456_789,
            command: Array("ubq coordinate".utf8), item: Array("/docs/".utf8) + name)
        let encoded = record.encoded(size: LockFile.recordSize)
        #expect(encoded.count == LockFile.recordSize)
        let decoded = HolderRecord(decoding: encoded[...])
        #expect(decoded?.pid == 4242)
        #expect(decoded?.command == Array("ubq coordinate".utf8))
        if encoded.contains(0) { #expect(decoded == record) }
    }

    @Test("a move record round-trips")
    func moveRecordRoundTrip() {
        let record = MoveRecord(nanoseconds: 99, from: Array("/a/\n".utf8), to: [0x2f, 0xff])
        let encoded = record.encoded()
        #expect(MoveRecord.encodedLength(header: Array(encoded.prefix(MoveRecord.headerSize))) == encoded.count)
        #expect(MoveRecord(decoding: encoded[...]) == record)
    }

    @Test("merged plans take the strongest lock once per lock file, in hash order")
    func planMerging() {
        let folder = ItemPath(canonicalBytes: Array("/d".utf8))
        let file = ItemPath(canonicalBytes: Array("/d/f".utf8))
        let plan = LockPlan(items: [(file, .reading([])), (folder, .writing([]))])
        #expect(plan.requests.count == 3)
        #expect(plan.requests.map(\.name) == plan.requests.map(\.name).sorted())
        #expect(plan.requests.filter(\.exclusive).map(\.name) == [LockName(path: folder)])
    }
}
