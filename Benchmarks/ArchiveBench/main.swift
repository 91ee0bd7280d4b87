// Archive benchmark (not a test): 10,000 diary entries of about 1 KB of body each, encoded
// and decoded by our codec, side by side with Foundation's NSKeyedUnarchiver (decode),
// PropertyListEncoder/Decoder (binary) on the same data, and Python bpylist2 (through
// bpylist2_bench.py). Prints times and ratios. Run it in release:
//     swift run -c release archive-bench [ENTRIES]
import Diary
import Foundation
import KeyedArchive

/// The same entry with Foundation types, for PropertyListEncoder.
struct FoundationEntry: Codable {
    var id: String
    var title: String
    var body: String
    var created: Date
    var modified: Date
    var tags: [String]
    var attachment: String?

    init(_ entry: DiaryEntry) {
        id = entry.id
        title = entry.title
        body = entry.body
        created = Date(timeIntervalSinceReferenceDate: entry.created.secondsSince2001)
        modified = Date(timeIntervalSinceReferenceDate: entry.modified.secondsSince2001)
        tags = entry.tags
        attachment = entry.attachment
    }
}

func makeEntries(_ count: Int) -> [DiaryEntry] {
    (0..<count).map { index in
        let body = String(repeating: "Entry \(index) says something about the day. ", count: 22)
        let created = ReferenceDate(secondsSince2001: 700_000_000 + Double(index) * 60)
        return DiaryEntry(id: "00000000-0000-4000-8000-" + String(String(100_000_000_000 + index).suffix(12)),
                          title: "Day \(index)", body: body, created: created,
                          modified: ReferenceDate(secondsSince2001: created.secondsSince2001 + 0.25),
                          tags: index % 3 == 0 ? ["work", "travel"] : ["home"], attachment: index % 10 == 0 ? "img\(index).jpg" : nil)
    }
}

/// CPU time of this thread, in seconds: the machine is shared, so wall-clock time would
/// measure the neighbours too. (bpylist2_bench.py measures the same way.)
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Best CPU time of `repeats` runs, in seconds.
func best(_ repeats: Int, _ work: () throws -> Void) rethrows -> Double {
    var fastest = Double.infinity
    for _ in 0..<repeats {
        let start = threadCPUSeconds()
        try work()
        fastest = min(fastest, threadCPUSeconds() - start)
    }
    return fastest
}

func bpylist2Times(archive: [UInt8]) -> (decode: Double, encode: Double)? {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("bpylist2_bench.py")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("archive-bench-\(getpid()).plist")
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, file.path, "3"]
    let output = Pipe()
    process.standardOutput = output
    do {
        try Data(archive).write(to: file)
        try process.run()
    } catch {
        return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let json = try? JSONParser.parse(String(decoding: data, as: UTF8.self)),
          case .real(let decode)? = json["decode_s"], case .real(let encode)? = json["encode_s"] else { return nil }
    return (decode, encode)
}

func report(_ label: String, _ seconds: Double, versus ours: Double) {
    let ratio = seconds / ours
    print("  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%8.3f s", seconds))   ours is \(String(format: "%6.2f", ratio))× faster")
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000
let entries = makeEntries(count)
var archive = try DiaryArchive.encode(entries)
let ourEncode = try best(5) { archive = try DiaryArchive.encode(entries) }
let ourDecode = try best(5) { _ = try DiaryArchive.decode(archive) }
if CommandLine.arguments.contains("--profile-decode") {
    // For `perf record`: our decoder alone, many times.
    for _ in 0..<20 { _ = try DiaryArchive.decode(archive) }
    exit(0)
}
if CommandLine.arguments.contains("--ours-only") {
    // For profiling our codec alone.
    print("ours (best CPU time): encode \(String(format: "%.3f", ourEncode)) s, decode \(String(format: "%.3f", ourDecode)) s")
    exit(0)
}
guard try DiaryArchive.decode(archive) == entries else {
    print("benchmark data does not round-trip")
    exit(1)
}

let foundationEntries = entries.map(FoundationEntry.init)
let plistEncoder = PropertyListEncoder()
plistEncoder.outputFormat = .binary
var plistData = try plistEncoder.encode(foundationEntries)
let plistEncode = try best(5) { plistData = try plistEncoder.encode(foundationEntries) }
let plistDecode = try best(5) { _ = try PropertyListDecoder().decode([FoundationEntry].self, from: plistData) }

let keyedDecode = try best(2) {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(archive))
    unarchiver.requiresSecureCoding = false
    _ = unarchiver.decodeObject(forKey: "Diary")
}

print("archive-bench: \(count) diary entries, archive \(archive.count) bytes, property list \(plistData.count) bytes")
print("ours (best CPU time): encode \(String(format: "%.3f", ourEncode)) s, decode \(String(format: "%.3f", ourDecode)) s")
print("encode:")
report("PropertyListEncoder (binary)", plistEncode, versus: ourEncode)
print("decode:")
report("PropertyListDecoder (binary)", plistDecode, versus: ourDecode)
report("NSKeyedUnarchiver (Foundation)", keyedDecode, versus: ourDecode)
if let python = bpylist2Times(archive: archive) {
    print("bpylist2 (Python):")
    report("bpylist2 encode", python.encode, versus: ourEncode)
    report("bpylist2 decode", python.decode, versus: ourDecode)
} else {
    print("bpylist2: not run (pip install bpylist2)")
}
