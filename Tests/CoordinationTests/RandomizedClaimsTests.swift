import Foundation
import Testing

/// Many processes take random overlapping claims on a small tree, with timeouts and random
/// SIGKILLs. Every holder logs its claim interval (CLOCK_MONOTONIC, taken just after it got
/// the claim and just before it gave it up); the test checks every pair of intervals of
/// different processes for incompatible overlaps. Replay a run with UBQ_COORDINATION_SEED.
@Suite("Randomized claims across processes")
struct RandomizedClaimsTests {
    static let processes = 8
    static let claimsPerProcess = 30
    static let victims = 3

    struct Interval {
        var process: Int
        var write: Bool
        var path: String
        var start: Int64
        var end: Int64?
    }

    @Test("random claims never overlap incompatibly and never deadlock")
    func randomClaims() throws {
        let seed = ProcessInfo.processInfo.environment["UBQ_COORDINATION_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("randomized coordination test seed: \(seed) (UBQ_COORDINATION_SEED=\(seed) replays it)")
        var random = SeededGenerator(state: seed)
        let sandbox = try Sandbox()
        let logs = sandbox.root.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let probes = try (0..<Self.processes).map { index in
            try ProbeProcess([
                "random", "--locks", sandbox.locks.path, "--root", sandbox.documents.path,
                "--seed", String(seed &+ UInt64(index) &* 7919), "--count", String(Self.claimsPerProcess),
                "--log", logs.appendingPathComponent("\(index).log").path, "--timeout", "0.5",
            ])
        }
        let victims = Array((0..<Self.processes).shuffled(using: &random).prefix(Self.victims))
        var killedAt: [Int: Int64] = [:]
        for victim in victims {
            usleep(UInt32.random(in: 5_000...60_000, using: &random))  // when to strike, not a wait for an event
            Self.waitUntilHolding(logs.appendingPathComponent("\(victim).log"))
            killedAt[victim] = monotonicNow()
            probes[victim].kill()
        }
        var timeouts = 0
        for (index, probe) in probes.enumerated() where killedAt[index] == nil {
            let line = try probe.expect("done", within: 45)
            #expect(line.hasPrefix("done \(Self.claimsPerProcess) timeouts "))
            timeouts += Int(line.split(separator: " ").last ?? "") ?? 0
        }
        let intervals = try (0..<Self.processes).flatMap { index in
            try Self.intervals(in: logs.appendingPathComponent("\(index).log"), process: index, killedAt: killedAt[index])
        }
        let cut = intervals.filter { interval in killedAt[interval.process] == interval.end }.count
        print("randomized coordination test: \(intervals.count) claimed items, \(timeouts) timeouts, "
              + "killed \(victims.sorted()), \(cut) of them while holding a claim")
        #expect(intervals.count > Self.processes * 5)
        let conflicts = Self.conflicts(in: intervals, root: sandbox.documents.path)
        #expect(conflicts.isEmpty, "seed \(seed): \(conflicts.prefix(5).joined(separator: "\n"))")
    }

    /// Watches a log until its last line opens a claim, so the kill lands on a holder
    /// (gives up after a second: the process may have finished).
    static func waitUntilHolding(_ log: URL) {
        let deadline = monotonicNow() + 1_000_000_000
        while monotonicNow() < deadline {
            if let data = try? Data(contentsOf: log),
               let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last, last.hasPrefix("A ") {
                return
            }
            usleep(300)
        }
    }

    /// Parses "A id t mode path" and "R id t" lines. A claim without its release line
    /// belongs to a killed process and ends when it was killed: the kernel released it
    /// after that instant, so no later holder can have stamped an earlier start.
    static func intervals(in log: URL, process: Int, killedAt: Int64?) throws -> [Interval] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        var open: [String: [Interval]] = [:]
        var closed: [Interval] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 4).map(String.init)
            if fields[0] == "A", fields.count == 5, let start = Int64(fields[2]) {
                open[fields[1], default: []].append(Interval(process: process, write: fields[3] == "w", path: fields[4], start: start))
            } else if fields[0] == "R", fields.count == 3, let end = Int64(fields[2]) {
                closed += (open.removeValue(forKey: fields[1]) ?? []).map { var done = $0; done.end = end; return done }
            }
        }
        let unfinished = open.values.flatMap { $0 }
        if !unfinished.isEmpty && killedAt == nil {
            throw ProbeFailure(description: "process \(process) left \(unfinished.count) claims unreleased in its log")
        }
        return closed + unfinished.map { var cut = $0; cut.end = killedAt; return cut }
    }

    /// The exclusion rules: a write excludes any access to the same item and, on a folder,
    /// to anything below it; readers share, and a folder read does not exclude writes below.
    static func incompatible(_ first: Interval, _ second: Interval) -> Bool {
        if first.path == second.path { return first.write || second.write }
        if second.path.hasPrefix(first.path + "/") { return first.write }
        if first.path.hasPrefix(second.path + "/") { return second.write }
        return false
    }

    static func conflicts(in intervals: [Interval], root: String) -> [String] {
        var found: [String] = []
        for (index, first) in intervals.enumerated() {
            for second in intervals[(index + 1)...] where first.process != second.process {
                guard incompatible(first, second),
                      let firstEnd = first.end, let secondEnd = second.end,
                      first.start < secondEnd, second.start < firstEnd else { continue }
                found.append("process \(first.process) \(first.write ? "wrote" : "read") \(first.path) while "
                    + "process \(second.process) \(second.write ? "wrote" : "read") \(second.path)")
            }
        }
        return found
    }
}

func monotonicNow() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// SplitMix64, so a seed replays the same schedule of kills.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }
}
