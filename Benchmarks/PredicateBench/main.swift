// predicate-bench: parsing throughput, and in-memory evaluation of a three-clause
// predicate over 1,000,000 dictionaries against a hand-written closure doing the same
// comparisons. Not a test; run in release:  swift run -c release predicate-bench
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PredicateKit

/// CPU time of this thread, not wall time: the build machine is shared, and a busy
/// neighbour should not make the numbers lie. (Wall time is printed alongside.)
struct Timing {
    var cpu: Double
    var wall: Double
}

func measure(_ body: () throws -> Void) rethrows -> Timing {
    func now(_ clock: clockid_t) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let (cpu, wall) = (now(CLOCK_THREAD_CPUTIME_ID), now(CLOCK_MONOTONIC))
    try body()
    return Timing(cpu: now(CLOCK_THREAD_CPUTIME_ID) - cpu, wall: now(CLOCK_MONOTONIC) - wall)
}

let typicalPredicates = [
    "kMDItemFSName LIKE[cd] '*.txt'",
    "kMDItemFSSize > 1000 AND kMDItemFSName ENDSWITH '.txt'",
    "kMDItemContentTypeTree == 'public.text' OR kMDItemContentTypeTree == 'public.image'",
    "NSMetadataUbiquitousItemIsUploadedKey == NO AND NSMetadataUbiquitousItemPercentDownloadedKey < 100",
    "kMDItemFSContentChangeDate > CAST(790000000, 'NSDate')",
    "kMDItemDisplayName BEGINSWITH[c] 'report' AND NOT kMDItemFSName BEGINSWITH '.'",
    "kMDItemFSName IN {'a.txt', 'b.txt', 'c.txt'}",
    "kMDItemFSSize BETWEEN {1024, 1048576}",
    "name == 'Alice' AND age >= 30 OR role == 'admin'",
    "ANY tags CONTAINS[cd] 'urgent'",
]

func benchmarkParsing() throws {
    let rounds = 40_000
    var parsed = 0
    let elapsed = try measure {
        for _ in 0..<rounds {
            for format in typicalPredicates {
                _ = try Predicate(format: format)
                parsed += 1
            }
        }
    }
    print("parse: \(parsed) predicates in \(format3(elapsed.cpu)) s CPU (\(format3(elapsed.wall)) s wall) = "
        + "\(Int(Double(parsed) / elapsed.cpu)) predicates per CPU second (target ≥ 200,000)")
}

func format3(_ value: Double) -> String {
    let scaled = (value * 1000).rounded() / 1000
    return "\(scaled)"
}

func makeObjects(count: Int) -> [PredicateValue] {
    var generator = SystemRandomNumberGenerator()
    let extensions = [".txt", ".md", ".jpg", ".pdf"]
    return (0..<count).map { index in
        .dictionary([
            "kMDItemFSName": .string("file-\(index)" + extensions[Int(generator.next() % 4)]),
            "kMDItemFSSize": .int(Int64(generator.next() % 5000)),
            "NSMetadataUbiquitousItemIsUploadedKey": .bool(generator.next() % 2 == 0),
            "kMDItemDisplayName": .string("file-\(index)"),
            "kMDItemContentType": .string("public.data"),
        ])
    }
}

/// The same three comparisons, written by hand.
func handWritten(_ object: PredicateValue) -> Bool {
    guard case .dictionary(let fields) = object else { return false }
    guard case .int(let size)? = fields["kMDItemFSSize"], size > 1000 else { return false }
    guard case .string(let name)? = fields["kMDItemFSName"], name.utf8.reversed().starts(with: ".txt".utf8.reversed()) else { return false }
    guard case .bool(let uploaded)? = fields["NSMetadataUbiquitousItemIsUploadedKey"], uploaded else { return false }
    return true
}

func benchmarkEvaluation() throws {
    let objects = makeObjects(count: 1_000_000)
    let predicate = try Predicate(format: "kMDItemFSSize > 1000 AND kMDItemFSName ENDSWITH '.txt' AND NSMetadataUbiquitousItemIsUploadedKey == YES")
    var predicateMatches = 0, closureMatches = 0
    var closureTime = Double.infinity, predicateTime = Double.infinity
    // Best of five alternating runs: the machine is shared, the minimum is the least noisy.
    for _ in 0..<5 {
        predicateMatches = 0
        closureMatches = 0
        closureTime = min(closureTime, measure { for object in objects where handWritten(object) { closureMatches += 1 } }.cpu)
        predicateTime = min(predicateTime, try measure { for object in objects where try predicate.evaluate(with: object) { predicateMatches += 1 } }.cpu)
    }
    guard predicateMatches == closureMatches else {
        print("the predicate (\(predicateMatches)) and the closure (\(closureMatches)) disagree")
        return
    }
    print("evaluate: 1,000,000 dictionaries, \(predicateMatches) matches")
    print("  hand-written closure: \(format3(closureTime)) s CPU (best of 5)")
    print("  Predicate.evaluate:   \(format3(predicateTime)) s CPU (best of 5)")
    print("  ratio: \(format3(predicateTime / closureTime))× (target ≤ 3×)")
}

// `predicate-bench parse` or `predicate-bench evaluate` runs one part (for profiling).
let parts = CommandLine.arguments.dropFirst()
if parts.isEmpty || parts.contains("parse") { try benchmarkParsing() }
if parts.isEmpty || parts.contains("evaluate") { try benchmarkEvaluation() }
