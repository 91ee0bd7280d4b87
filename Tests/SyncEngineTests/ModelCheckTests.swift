import Crypto
import Foundation
import Glibc
import RawPaths
import Testing
import TestSupport

@testable import SyncEngine

/// A randomized model-based test in the spirit of Dropbox's CanopyCheck: seeded random
/// operations on random devices, interleaved with syncs, edits made while a pass runs,
/// crashes at random steps of a pass and restarts, one device leaving files being written
/// for later; then every device must hold the same tree, first after passes told only what
/// changed (as ubqd's are between full passes), then after full passes, shown alike in each
/// device's view in the mirror; and every content a device ever offered to a sync must be
/// current somewhere or kept in the mirror's history.
///
/// `UBQ_MODEL_SEED` replays one seed; `UBQ_MODEL_OPS` sets the operations per seed and
/// `UBQ_MODEL_SEEDS` how many seeds run (CI: a short budget).
@Suite("Randomized model check", .serialized)
struct ModelCheckTests {
    static let environment = ProcessInfo.processInfo.environment
    static let operations = environment["UBQ_MODEL_OPS"].flatMap(Int.init) ?? 150
    static let seeds: [UInt64] = {
        if let seed = environment["UBQ_MODEL_SEED"].flatMap(UInt64.init) { return [seed] }
        let count = environment["UBQ_MODEL_SEEDS"].flatMap(Int.init) ?? 4
        // Seeds drawn from a generator: multiples of SplitMix64's own increment would give
        // runs whose random streams are the same stream shifted by one draw.
        var seeds = SplitMix64(seed: 2026)
        return (0..<count).map { _ in seeds.next() }
    }()

    @Test(arguments: seeds)
    func devicesConvergeAndNothingIsLost(seed: UInt64) throws {
        let scratch = Scratch()
        var run = try ModelRun(seed: seed, scratch: scratch)
        try run.perform(operations: Self.operations)
        let replay = "UBQ_MODEL_SEED=\(seed) UBQ_MODEL_OPS=\(Self.operations) swift test --filter ModelCheckTests"
        // Passes told only what changed, as ubqd's are between its full passes (every 10
        // minutes): what they leave behind waits that long.
        run.settleScoped()
        #expect(
            run.divergences.isEmpty,
            "devices differed after passes told what changed, before full ones; replay: \(replay)\n\(run.divergences.first ?? "")")
        try run.settle()
        let trees = run.devices.map { $0.tree() }
        #expect(trees.allSatisfy { $0 == trees[0] }, "devices differ; replay: \(replay)\n\(run.journal.suffix(40).joined(separator: "\n"))")
        let views = run.devices.map { $0.viewTree() }
        #expect(views == trees, "a view differs from its device's tree after full passes; replay: \(replay)")
        let lost = run.lostContents()
        #expect(lost.isEmpty, "\(lost.count) contents lost, e.g. \(lost.prefix(3)); replay: \(replay)")
        #expect(run.lostWhileWritten.isEmpty, "a pass changed files it left for later: \(run.lostWhileWritten.prefix(3)); replay: \(replay)")
        if !lost.isEmpty, Self.environment["UBQ_MODEL_JOURNAL"] != nil { print(run.journal.joined(separator: "\n")) }
    }
}

/// One seeded run over three devices.
struct ModelRun {
    var random: SplitMix64
    let devices: [TestDevice]
    let mirror: String
    /// Where the links `changeKind` makes lead: a folder never made.
    let nowhere: String
    /// Every content a device held when a sync pass started: none of it may be lost.
    var offered: Set<String> = []
    /// Files a pass left for later (still being written) that were not as they were after
    /// it: such a pass must not touch them.
    var lostWhileWritten: [String] = []
    var journal: [String] = []
    private var counter = 0
    /// Per device, the paths changed since its last pass (what the watcher would report),
    /// or nil when its next pass must be full (after a start or a crash, as in ubqd).
    private var touched: [String: Set<String>?] = [:]
    /// Per device, how many passes `sync` ran: for a device with a quiet period, every
    /// other one is settled (no draw from the random stream, so a seed replays the same
    /// operations).
    private var passes: [String: Int] = [:]

    init(seed: UInt64, scratch: Scratch) throws {
        random = SplitMix64(seed: seed)
        mirror = scratch.path + "/mirror"
        // c, as ubqd does, leaves a file written a moment ago for a later pass (every file
        // here is that recent): every other pass of c's is not `settled`.
        devices = try scratch.devices("a", "b") + [TestDevice("c", in: scratch.path, mirror: mirror, quietMilliseconds: 60_000)]
        journal.append("c: every other pass leaves the files written within 60 s for later")
        nowhere = scratch.path + "/never-made/nowhere"
        for (n, device) in devices.enumerated() {
            device.batchCapacity = Self.batchCapacities[Int((seed &+ UInt64(n)) % UInt64(Self.batchCapacities.count))]
            journal.append("\(device.name): device \(device.engine.device.id), batches of \(device.batchCapacity)")
        }
    }

    /// How many changes a device's passes commit together, picked by the seed without a
    /// draw from its random stream (a seed keeps the operations it made before). Batches
    /// of 1 to 3 make a pass over these few files commit in several, one sealed while the
    /// next fills, and crashes fall between them; the last is the daemon's size.
    static let batchCapacities = [1, 2, 3, ChangeBatch.defaultCapacity]

    static let names = ["a.txt", "b.txt", "notes/c.txt", "notes/d.md", "notes/deep/e.txt", "x/f.txt"]
    /// The names a folder move (`moveFolder`) takes a top-level folder from and to.
    static let folders = ["notes", "x", "archive", "old"]

    mutating func perform(operations: Int) throws {
        for _ in 0..<operations {
            let device = devices[random.below(devices.count)]
            let roll = random.below(100)
            // What the operation changed, as ubqd's watcher reports it: the folders it made
            // on the way too (a rename into a folder that was not there).
            let before = userItems(device)
            defer { touchChanges(device, since: before) }
            switch roll {
            case 0..<24: try write(device)
            case 24..<34: try append(device)
            case 34..<44: try rename(device)
            case 44..<49: try moveFolder(device)
            case 49..<56: try delete(device)
            case 56..<60: try changeKind(device)
            case 60..<84: sync(device)
            case 84..<90: try syncWhileEditing(device)
            case 90..<96: try crashDuringSync(device)
            default:
                try device.restart()
                touched[device.name] = .some(nil)
                journal.append("\(device.name): restart")
            }
        }
    }

    /// Syncs every device in turn, each pass told what changed (`touched`: full only after
    /// a start or a crash), until none changes anything; then the devices must agree, or
    /// `divergences` says when they did not.
    mutating func settleScoped() {
        for device in devices { device.engine.faults = nil }
        for _ in 0..<6 {
            var changed = false
            for device in devices {
                let report = sync(device, confirm: true, scoped: true)
                changed = changed || report.changedAnything
            }
            if !changed { break }
        }
        let trees = devices.map { $0.tree() }
        if !trees.allSatisfy({ $0 == trees[0] }) {
            if divergences.isEmpty, ModelCheckTests.environment["UBQ_MODEL_JOURNAL"] != nil { print(journal.joined(separator: "\n")) }
            divergences.append("at journal line \(journal.count): \(differences(trees))\n\(journal.suffix(40).joined(separator: "\n"))")
        }
    }

    /// Where each device's tree differs from the first's, path by path.
    private func differences(_ trees: [[String: String]]) -> String {
        zip(devices, trees).dropFirst().flatMap { device, tree in
            Set(tree.keys).union(trees[0].keys).sorted().filter { tree[$0] != trees[0][$0] }.map { path in
                let current = (try? device.versions(path))?.first(where: \.current).map { "\($0.id) \($0.kind)" } ?? "none"
                return "\(path): \(devices[0].name) has \(trees[0][path]?.debugDescription ?? "nothing"), \(device.name) \(tree[path]?.debugDescription ?? "nothing") (current in the mirror: \(current))"
            }
        }.joined(separator: "; ")
    }

    /// Each time devices did not agree after passes told only what changed (`settleScoped`).
    var divergences: [String] = []

    /// Syncs every device in turn until none changes anything (a few rounds suffice).
    mutating func settle() throws {
        for device in devices { device.engine.faults = nil }
        for _ in 0..<6 {
            var changed = false
            for device in devices {
                let report = sync(device, confirm: true)
                changed = changed || report.changedAnything
            }
            if !changed { break }
        }
    }

    private mutating func content() -> String {
        counter += 1
        return "content \(counter) \(random.next())\n"
    }

    private mutating func write(_ device: TestDevice) throws {
        let name = Self.names[random.below(Self.names.count)]
        let text = content()
        if (try? device.write(name, text)) != nil {
            touch(device, name)
            journal.append("\(device.name): write \(name) = content \(counter)")
        }
    }

    private mutating func append(_ device: TestDevice) throws {
        let existing = files(device)
        guard let name = existing.randomElement(using: &random) else { return }
        let path = device.documents + "/" + name
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(content().utf8))
        try handle.close()
        touch(device, name)
        journal.append("\(device.name): append \(name) + content \(counter)")
    }

    private mutating func rename(_ device: TestDevice) throws {
        guard let from = files(device).randomElement(using: &random) else { return }
        let to = Self.names[random.below(Self.names.count)]
        guard from != to else { return }
        try? FileManager.default.createDirectory(atPath: (device.documents + "/" + to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if Glibc.rename(device.documents + "/" + from, device.documents + "/" + to) == 0 {
            touch(device, from)
            touch(device, to)
            journal.append("\(device.name): mv \(from) \(to)")
        }
    }

    /// Two times in three, the devices agree first, the mover publishes at once, and
    /// another device takes the move as its next step: the receiver then holds the folder
    /// just as synced and renames it whole (`FolderMove`), which the busy interleaving
    /// almost never lets happen (no whole rename in 2,000 operations without this). Half of
    /// those times the receiver first adds, deletes or edits below the folder's old path,
    /// not knowing of the move: its new items and deletions follow the rename
    /// (`Relocation`, `FolderDeletionFollowing`), as its edits do (`FollowedMove`), which
    /// random operations alone seldom set up. (Its first runs found a folder moved back
    /// where it once was published as new files, so nothing followed it.)
    private mutating func moveFolder(_ device: TestDevice) throws {
        let quiet = random.below(3) != 0
        if quiet { settleScoped() }
        // A folder that is there, to a name that is free, or into another folder when every
        // name is taken (writes bring `notes` and `x` back soon after they move).
        let folders = Self.folders.filter { Self.mode(device, $0).map { $0 & S_IFMT == S_IFDIR } ?? false }
        let free = Self.folders.filter { Self.mode(device, $0) == nil }
        guard !folders.isEmpty else { return }
        let from = folders[random.below(folders.count)]
        let others = folders.filter { $0 != from }
        guard !free.isEmpty || !others.isEmpty else { return }
        let to = free.isEmpty ? others[random.below(others.count)] + "/" + from : free[random.below(free.count)]
        guard Glibc.rename(device.documents + "/" + from, device.documents + "/" + to) == 0 else { return }
        touch(device, from)
        touch(device, to)
        journal.append("\(device.name): mv \(from)/ \(to)/")
        guard quiet else { return }
        sync(device)
        try receive(from: device, changingBelow: random.below(2) == 0 ? from : nil)
    }

    /// The mode of the item `name` holds on `device` (a link's own), nil if none.
    private static func mode(_ device: TestDevice, _ name: String) -> mode_t? {
        var info = stat()
        return lstat(device.documents + "/" + name, &info) == 0 ? info.st_mode : nil
    }

    /// A device other than `mover` syncs, and sometimes is killed during it; first, with
    /// `folder`, it changes something below that folder (`changeBelow`).
    private mutating func receive(from mover: TestDevice, changingBelow folder: String?) throws {
        let others = devices.filter { $0 !== mover }
        let receiver = others[random.below(others.count)]
        if let folder { try changeBelow(folder, on: receiver) }
        if random.below(3) == 0 { try crashDuringSync(receiver) } else { sync(receiver) }
    }

    /// Adds a file or a folder holding one below `folder` on `device`, or deletes or
    /// appends to a file there, under a name no other operation makes.
    private mutating func changeBelow(_ folder: String, on device: TestDevice) throws {
        let before = userItems(device)
        defer { touchChanges(device, since: before) }
        let inside = files(device).filter { $0.hasPrefix(folder + "/") }
        let text = content()
        switch random.below(4) {
        case 0:
            let name = "\(folder)/new-\(counter).txt"
            try device.write(name, text)
            journal.append("\(device.name): write \(name) = content \(counter)")
        case 1:
            let name = "\(folder)/made-\(counter)/new.txt"
            try device.write(name, text)
            journal.append("\(device.name): write \(name) = content \(counter)")
        case 2:
            guard let name = inside.randomElement(using: &random) else { return }
            try FileManager.default.removeItem(atPath: device.documents + "/" + name)
            journal.append("\(device.name): rm \(name)")
        default:
            guard let name = inside.randomElement(using: &random),
                let handle = FileHandle(forWritingAtPath: device.documents + "/" + name)
            else { return }
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try handle.close()
            journal.append("\(device.name): append \(name) + content \(counter)")
        }
    }

    private mutating func delete(_ device: TestDevice) throws {
        guard let name = files(device).randomElement(using: &random) else { return }
        try? FileManager.default.removeItem(atPath: device.documents + "/" + name)
        touch(device, name)
        journal.append("\(device.name): rm \(name)")
    }

    /// Puts an item of another kind in an item's place: a folder becomes a file or a link
    /// (what was in it goes), a file or a link becomes a folder holding a new file. The
    /// links lead into a folder that never exists, so that a later write at a link's path
    /// fails instead of making a file the run does not know of.
    private mutating func changeKind(_ device: TestDevice) throws {
        let name = Self.kindChangeNames[random.below(Self.kindChangeNames.count)]
        let path = device.documents + "/" + name
        guard let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType else { return }
        try FileManager.default.removeItem(atPath: path)
        if type == .typeDirectory, random.below(2) == 0 {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: nowhere)
            journal.append("\(device.name): \(name)/ made a link")
        } else if type == .typeDirectory {
            try device.write(name, content())
            journal.append("\(device.name): \(name)/ made a file = content \(counter)")
        } else {
            try device.write(name + "/inside.txt", content())
            journal.append("\(device.name): \(name) made a folder, inside.txt = content \(counter)")
        }
        touch(device, name)
    }

    /// Folders of `names` and a few of its files: the items `changeKind` picks from.
    static let kindChangeNames = ["notes", "notes/deep", "x", "archive", "a.txt", "notes/c.txt"]

    /// A pass that completes must keep every content the device held when it started
    /// (unless the user changed the device while it ran: `offering` false), and leave the
    /// files it left for later as they were. `scoped`: told only what changed when that is
    /// known (nil: at random). The settling passes (`confirm`) are all settled.
    @discardableResult
    private mutating func sync(_ device: TestDevice, confirm: Bool = false, offering: Bool = true, scoped: Bool? = nil) -> PassReport {
        let before = userItems(device)
        passes[device.name, default: 0] += 1
        let settled = confirm || passes[device.name, default: 0] % 2 == 0
        let unsettled = device.quietMilliseconds > 0 && !settled ? " (unsettled)" : ""
        let report: PassReport
        if scoped ?? (!confirm && random.below(2) == 0), case let paths?? = touched[device.name] {
            journal.append("\(device.name): scoped sync\(unsettled) \(paths.sorted())")
            let scope = Set(paths.map { RawPath("Documents/" + $0) })
            report = device.sync(confirmDeletes: confirm, settled: settled, changed: scope)
        } else {
            journal.append("\(device.name): sync\(unsettled)")
            report = device.sync(confirmDeletes: confirm, settled: settled)
        }
        journal.append("\(device.name):   published \(report.published), applied \(report.applied), followed \(report.followed), skipped \(report.skipped)"
            + (report.deferred.isEmpty ? "" : ", deferred \(report.deferred.map(\.readable))") + (report.problems.isEmpty ? "" : ", problems \(report.problems)"))
        touched[device.name] = .some([])
        // ubqd's watcher sees the pass's own writes too (downloads, conflict copies beside
        // a file), and tells the next pass of them; and ubqd hands the files a pass left
        // to settle to a later one. Those were not offered to this pass.
        touchChanges(device, since: before)
        let deferred = Set(report.deferred.compactMap { SyncPath.key($0) }.map { String($0.dropFirst("Documents/".count)) })
        for path in deferred { touch(device, path) }
        if offering {
            let after = userItems(device)
            for path in deferred where after[path] != before[path] {
                lostWhileWritten.append("\(device.name): \(path) at journal line \(journal.count)")
            }
        }
        if offering && report.problems.isEmpty { offered.formUnion(contents(before.filter { !deferred.contains($0.key) })) }
        return report
    }

    /// A pass during which the user edits the device, at one of the pass's steps: a file
    /// the pass is about to replace, upload or record may change under it. What the user
    /// saves then must never be lost: unless it is still on the device afterwards, the pass
    /// must have recorded it. (What the device held when the pass started is not offered:
    /// the edit may overwrite it before it was uploaded, as before any sync.)
    private mutating func syncWhileEditing(_ device: TestDevice) throws {
        let kinds: [RacingEdit.Kind] = [.write, .write, .append, .rename, .delete]
        let edit = RacingEdit(
            kind: kinds[random.below(kinds.count)], device: device, name: Self.names[random.below(Self.names.count)],
            other: Self.names[random.below(Self.names.count)], text: content())
        let checkpoint = Self.raceCheckpoints[random.below(Self.raceCheckpoints.count)]
        let skip = random.below(3)
        let faults = FaultInjection()
        edit.arm(faults, at: checkpoint, skipping: skip)
        device.engine.faults = faults
        journal.append("\(device.name): sync with \(edit) (content \(counter)) at \(checkpoint) #\(skip + 1)")
        sync(device, offering: false)
        device.engine.faults = nil
        guard edit.fired else { return }
        journal.append("\(device.name):   the edit was made")
        touch(device, edit.name)
        if edit.kind == .rename { touch(device, edit.other) }
        if let written = edit.written, !contents(device).contains(written) { offered.insert(written) }
    }

    /// The steps of a pass where `syncWhileEditing` edits (the names of the checkpoints in
    /// `SyncEngine`: `Executor.stagedCheckpoint`, `ChangeBatch`, `Executor`).
    static let raceCheckpoints = [
        "between actions", "install: a run's new files beside their targets, none in place",
        "install: new item beside the target, not in place", "apply: disk written, base not committed",
        "follow: disk written, base not committed", "batch: objects stored, log not appended",
        "batch: log appended, base not committed",
    ]

    /// A pass that crashes promises nothing: the content may not have been uploaded yet
    /// (and the user may then delete it, as before any sync).
    private mutating func crashDuringSync(_ device: TestDevice) throws {
        let faults = FaultInjection()
        faults.crash(afterCheckpoints: random.below(12))
        device.engine.faults = faults
        device.sync(confirmDeletes: random.below(2) == 0)
        try device.restart()
        touched[device.name] = .some(nil)
        journal.append("\(device.name): sync, crash, restart")
    }

    /// Notes a changed path, and its folder: a file moved or deleted changes its folder too.
    private mutating func touch(_ device: TestDevice, _ name: String) {
        guard case .some(var paths?) = touched[device.name] ?? .some([]) else { return }
        paths.insert(name)
        touched[device.name] = .some(paths)
    }

    /// Notes every path whose item differs from `before` (`userItems`).
    private mutating func touchChanges(_ device: TestDevice, since before: [String: String]) {
        let after = userItems(device)
        for path in Set(before.keys).union(after.keys) where before[path] != after[path] { touch(device, path) }
    }

    private func contents(_ device: TestDevice) -> Set<String> {
        contents(userItems(device))
    }

    private func contents(_ items: [String: String]) -> Set<String> {
        Set(items.values.filter { !$0.hasPrefix("<") && !$0.hasPrefix("->") })
    }

    private func files(_ device: TestDevice) -> [String] {
        userItems(device).filter { !$0.value.hasPrefix("<") }.keys.sorted()
    }

    /// The device's tree without the downloads a crash left unfinished, which the next
    /// pass deletes: they are the daemon's, no user edits them.
    private func userItems(_ device: TestDevice) -> [String: String] {
        device.tree().filter { !($0.key.split(separator: "/").last ?? "").hasPrefix(".ubq-sync-") }
    }

    /// Offered contents that are neither on a device nor an object some log names.
    func lostContents() -> [String] {
        let current = Set(devices.flatMap { $0.tree().values })
        let logs = (try? FileManager.default.subpathsOfDirectory(atPath: mirror))?.filter { $0.hasSuffix(".ndjson") } ?? []
        let logged = logs.map { (try? String(contentsOfFile: mirror + "/" + $0, encoding: .utf8)) ?? "" }.joined()
        return offered.filter { text in
            if current.contains(text) { return false }
            let hash = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
            let stored = FileManager.default.fileExists(atPath: "\(mirror)/store/sha256/\(hash.prefix(2))/\(hash)")
            return !(stored && logged.contains(hash))
        }.sorted()
    }
}

/// A user's edit made while a pass runs, when the pass reaches a checkpoint for the
/// `skipping + 1`-th time (`ModelRun.syncWhileEditing`).
final class RacingEdit: CustomStringConvertible {
    enum Kind { case write, append, rename, delete }
    let kind: Kind
    let device: TestDevice
    let name: String
    let other: String
    let text: String
    private(set) var fired = false
    /// The file's whole content after a write or an append that went through.
    private(set) var written: String?

    init(kind: Kind, device: TestDevice, name: String, other: String, text: String) {
        (self.kind, self.device, self.name, self.other, self.text) = (kind, device, name, other, text)
    }

    var description: String {
        switch kind {
        case .write: "write \(name)"
        case .append: "append to \(name)"
        case .rename: "mv \(name) \(other)"
        case .delete: "rm \(name)"
        }
    }

    func arm(_ faults: FaultInjection, at checkpoint: String, skipping skip: Int) {
        faults.interleave(at: checkpoint) { [self, weak faults] in
            guard let faults else { return }
            if skip > 0 { arm(faults, at: checkpoint, skipping: skip - 1) } else { perform() }
        }
    }

    private func perform() {
        fired = true
        let path = device.documents + "/" + name
        switch kind {
        case .write:
            if (try? device.write(name, text)) != nil { written = text }
        case .append:
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.seekToEndOfFile()
            handle.write(Data(text.utf8))
            try? handle.close()
            written = device.read(name)
        case .rename:
            let target = device.documents + "/" + other
            try? FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = Glibc.rename(path, target)
        case .delete:
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
