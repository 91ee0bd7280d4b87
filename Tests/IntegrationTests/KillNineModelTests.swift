import Foundation
import Glibc
import Testing
import TestSupport

/// The randomized check of issue 7 with real daemons: three `ubqd`s on one mirror, seeded
/// random operations on random devices (write, append, rename, folder moves, deletions),
/// `ubq sync` now and then, and `kill -9` of a daemon at random moments, also while a pass
/// it was asked for runs, then a restart. At the end every device must hold the same tree,
/// and every content a device held when one of its `ubq sync` calls completed must still be
/// in the mirror's store (current, a conflict or a history version).
///
/// `UBQ_KILL_SEED=S` replays one seed, `UBQ_KILL_OPS=N` sets the operations per seed (CI:
/// 40), `UBQ_KILL_SEEDS=K` runs K random seeds instead of the fixed ones.
@Suite("Randomized sync with kill -9 of real daemons", .serialized)
final class KillNineModelTests {
    static let environment = ProcessInfo.processInfo.environment
    static let operations = environment["UBQ_KILL_OPS"].flatMap(Int.init) ?? 40
    static let seeds: [UInt64] = {
        if let seed = environment["UBQ_KILL_SEED"].flatMap(UInt64.init) { return [seed] }
        if let count = environment["UBQ_KILL_SEEDS"].flatMap(Int.init) { return (0..<count).map { _ in UInt64.random(in: 1...UInt64.max) } }
        return [7, 1_013]
    }()

    @Test(arguments: seeds) func devicesConvergeAndNothingSyncedIsLost(seed: UInt64) throws {
        let shared = SharedMirror()
        let replay = "UBQ_KILL_SEED=\(seed) UBQ_KILL_OPS=\(Self.operations) swift test --filter KillNineModelTests"
        var run = try ModelRun(seed: seed, shared: shared)
        for step in 0..<Self.operations { try run.step(step) }
        try run.converge()
        let trees = run.devices.map { $0.documentsTree() }
        #expect(trees.allSatisfy { $0 == trees[0] }, "devices differ: \(trees.map { $0.sorted { $0.key < $1.key } }); replay: \(replay)\njournal:\n\(run.journal.joined(separator: "\n"))")
        let lost = run.synced.subtracting(storedObjects(shared.path))
        #expect(lost.isEmpty, "synced contents not in the mirror: \(lost.map { run.seenAt[$0] ?? $0 }); replay: \(replay)\njournal:\n\(run.journal.joined(separator: "\n"))")
        #expect(run.kills > 0, "the seed never killed a daemon: pick another")
    }

    /// The content hashes in the mirror's store.
    private func storedObjects(_ mirror: String) -> Set<String> {
        let store = mirror + "/store/sha256"
        let prefixes = (try? FileManager.default.contentsOfDirectory(atPath: store)) ?? []
        return Set(prefixes.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: store + "/" + $0)) ?? [] })
    }
}

/// One seeded run: the devices, what was done, and what was synced.
struct ModelRun {
    let mirror: String
    var devices: [DaemonHarness] = []
    var random: SplitMix64
    var journal: [String] = []
    /// SHA-256 of every content a device held when one of its `ubq sync` calls completed.
    var synced: Set<String> = []
    var kills = 0
    /// Where each synced content was seen: "device N: path" (for failure messages).
    var seenAt: [String: String] = [:]
    static let folders = ["a", "b", "b/c"]
    static let names = ["x.txt", "y.txt", "z.md"]

    init(seed: UInt64, shared: SharedMirror) throws {
        mirror = shared.path
        random = SplitMix64(seed: seed)
        for _ in 0..<3 {
            let device = shared.add(try DaemonHarness())
            try device.start(extraEnvironment: ["UBQ_MIRROR": mirror])
            devices.append(device)
        }
    }

    mutating func step(_ index: Int) throws {
        let device = Int.random(in: 0..<devices.count, using: &random)
        let folder = Self.folders.randomElement(using: &random)!
        let file = "\(folder)/\(Self.names.randomElement(using: &random)!)"
        let text = "step \(index) on \(device)"
        let script: String
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<4: script = "mkdir -p \(folder) && echo '\(text)' > \(file)"
        case 4: script = "[ -f \(file) ] && echo '\(text)' >> \(file)"
        case 5: script = "[ -f \(file) ] && mv \(file) \(folder)/renamed-\(index).txt"
        case 6: script = "rm -f \(file)"
        case 7: script = "[ -d a ] && [ ! -e b/c/a ] && mkdir -p b/c && mv a b/c/a"
        case 8, 9:
            try sync(device)
            return
        default:
            try killDuringSync(device, index)
            return
        }
        journal.append("\(index): device \(device): \(script)")
        _ = try devices[device].shell(script + "; true")
    }

    /// Syncs `device`; what it held then is in the mirror once the call completes.
    private mutating func sync(_ device: Int) throws {
        let held = try hashes(devices[device])
        for (hash, path) in held where seenAt[hash] == nil { seenAt[hash] = "device \(device): \(path)" }
        let result = try devices[device].ubq(["sync"])
        journal.append("sync device \(device): status \(result.status)")
        if result.status == 0 { synced.formUnion(held.keys) }
    }

    /// Asks `device` for a pass and kills it with SIGKILL at once (or, at random, right
    /// after a file change), then starts it again on the same state.
    private mutating func killDuringSync(_ device: Int, _ index: Int) throws {
        let harness = devices[device]
        let asked = Process()
        asked.executableURL = URL(fileURLWithPath: DaemonHarness.binaries + "/ubq")
        asked.arguments = ["sync"]
        asked.environment = harness.environment
        asked.standardOutput = FileHandle.nullDevice
        asked.standardError = FileHandle.nullDevice
        let duringPass = Bool.random(using: &random)
        if duringPass { try asked.run() }
        harness.killNine()
        if duringPass { asked.waitUntilExit() }
        kills += 1
        journal.append("\(index): kill -9 device \(device)\(duringPass ? " as it was asked to sync" : "")")
        try harness.start(extraEnvironment: ["UBQ_MIRROR": mirror])
    }

    /// Rounds of `ubq sync` on every device until a round changes nothing anywhere.
    mutating func converge() throws {
        for round in 0..<6 {
            let before = devices.map { $0.documentsTree() }
            for device in devices.indices { try sync(device) }
            let after = devices.map { $0.documentsTree() }
            journal.append("converge round \(round)")
            if before == after && after.allSatisfy({ $0 == after[0] }) { return }
        }
    }

    /// SHA-256 of every file below the device's Documents folder.
    private func hashes(_ device: DaemonHarness) throws -> [String: String] {
        let listed = try device.shell("find . -type f ! -name '.*' -exec sha256sum {} + 2>/dev/null; true")
        var found: [String: String] = [:]
        for line in listed.text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { found[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return found
    }
}
