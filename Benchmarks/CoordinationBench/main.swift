// coordination-bench: measures FileCoordinator (run it in release).
//
//   coordination-bench [--iterations N] [--processes P] [--seconds S] [--locks-on-disk]
//     The lock directory is on tmpfs (/dev/shm, like $XDG_RUNTIME_DIR) unless --locks-on-disk.
//     1. uncontended read and write claim+release latency in-process: p50, p99, mean;
//     2. claim throughput with P processes (itself, `worker` mode) contending on 4 files
//        of one folder, 30% writes, for S seconds;
//     3. ubqd's indexer read (`withoutChanges, withoutCreatingLockFiles`, no wait) of
//        --distinct N files read once each: µs per file, and lock files left behind; then
//        the same files read 64 to a claim, as ubqd's content reader and sync pass read,
//        also with 500 and 5,000 other lock files in the lock directory.
import Coordination
import Foundation

func monotonic() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// User plus system CPU time of this process: unlike wall time, not inflated by other load.
func cpuNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

func option(_ name: String, _ fallback: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return Int(arguments[index + 1]) ?? fallback
}

func makeTree() throws -> (locks: URL, files: [URL]) {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-bench-\(getpid())")
    let folder = base.appendingPathComponent("Ubiquity/iCloud~com~example~Diary/Documents")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let files = (0..<4).map { folder.appendingPathComponent("entry-\($0).txt") }
    for file in files { try Data("x".utf8).write(to: file) }
    let tmpfs = FileManager.default.fileExists(atPath: "/dev/shm") && !CommandLine.arguments.contains("--locks-on-disk")
    // Inside a folder of our own: a coordinator refuses a lock directory in a folder others
    // may write to, such as /dev/shm itself.
    let locks = tmpfs ? URL(fileURLWithPath: "/dev/shm/ubq-bench-\(getpid())/locks") : base.appendingPathComponent("locks")
    try FileManager.default.createDirectory(
        at: locks.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    print("documents in \(folder.path), lock files in \(locks.path)")
    return (locks, files)
}

func latency(_ coordinator: FileCoordinator, _ file: URL, write: Bool, iterations: Int) throws {
    var samples: [Int64] = []
    samples.reserveCapacity(iterations)
    let cpuBefore = cpuNanoseconds()
    for round in 0..<(iterations + iterations / 10) {
        let start = monotonic()
        if write {
            try coordinator.coordinate(writingItemAt: file) { _ in }
        } else {
            try coordinator.coordinate(readingItemAt: file) { _ in }
        }
        if round >= iterations / 10 { samples.append(monotonic() - start) }
    }
    let cpuPerClaim = Double(cpuNanoseconds() - cpuBefore) / Double(iterations + iterations / 10) / 1000
    samples.sort()
    let mean = Double(samples.reduce(0, +)) / Double(samples.count) / 1000
    let p50 = Double(samples[samples.count / 2]) / 1000
    let p99 = Double(samples[samples.count * 99 / 100]) / 1000
    print(String(format: "uncontended %@ claim+release (%d levels deep): p50 %.1f µs  p99 %.1f µs  mean %.1f µs  CPU %.1f µs/claim  (n=%d)",
                 write ? "write" : "read ", file.pathComponents.count - 1, p50, p99, mean, cpuPerClaim, samples.count))
}

/// One read of each of `count` distinct files, as ubqd's indexer reads documents.
func indexerReads(_ coordinator: FileCoordinator, folder: URL, count: Int) throws {
    let files = (0..<count).map { folder.appendingPathComponent("indexed-\($0).txt") }
    for file in files { try Data("x".utf8).write(to: file) }
    let lockFilesBefore = try FileManager.default.contentsOfDirectory(atPath: coordinator.lockDirectory.path).count
    let options: FileCoordinator.ReadingOptions = [.withoutChanges, .withoutCreatingLockFiles]
    let cpuBefore = cpuNanoseconds(), start = monotonic()
    for file in files { try coordinator.coordinate(readingItemAt: file, options: options, timeout: .zero) { _ in } }
    let wall = Double(monotonic() - start) / Double(count) / 1000, cpu = Double(cpuNanoseconds() - cpuBefore) / Double(count) / 1000
    let left = try FileManager.default.contentsOfDirectory(atPath: coordinator.lockDirectory.path).count - lockFilesBefore
    print(String(format: "indexer reads of %d distinct files: %.1f µs/file wall, %.1f µs/file CPU, %d lock files left", count, wall, cpu, left))
    try groupReads(coordinator, files: files, options: options)
    // Lock files of other paths (apps' claims leave them until pruned): a claim lists the
    // directory while that is cheaper than opening each lock file (`LockListing`).
    for strays in [500, 5000] {
        try addStrayLockFiles(coordinator, upTo: strays)
        print("with \(strays) lock files of other paths in the lock directory:")
        try groupReads(coordinator, files: files, options: options)
    }
}

/// Lock files for paths nobody claims now, until the lock directory holds `count` of them.
func addStrayLockFiles(_ coordinator: FileCoordinator, upTo count: Int) throws {
    let present = try FileManager.default.contentsOfDirectory(atPath: coordinator.lockDirectory.path).count
    for index in present..<count {
        let name = String(format: "%032lx.lock", UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        FileManager.default.createFile(atPath: coordinator.lockDirectory.appendingPathComponent(name).path, contents: nil)
    }
}

/// The same files read `perClaim` to a claim, as `ItemInspector.snapshotsInGroups` reads.
func groupReads(_ coordinator: FileCoordinator, files: [URL], options: FileCoordinator.ReadingOptions, perClaim: Int = 64) throws {
    let cpuBefore = cpuNanoseconds(), start = monotonic()
    for first in stride(from: 0, to: files.count, by: perClaim) {
        let group = Array(files[first..<min(first + perClaim, files.count)])
        try coordinator.coordinate(readingItemsAt: group, options: options, timeout: .zero) { _ in }
    }
    let count = files.count
    let wall = Double(monotonic() - start) / Double(count) / 1000, cpu = Double(cpuNanoseconds() - cpuBefore) / Double(count) / 1000
    print(String(format: "indexer reads of the same files, %d to a claim: %.2f µs/file wall, %.2f µs/file CPU", perClaim, wall, cpu))
}

func worker(locks: URL, files: [URL], seconds: Int) throws {
    let coordinator = try FileCoordinator(lockDirectory: locks)
    var generator = SystemRandomNumberGenerator()
    let end = monotonic() + Int64(seconds) * 1_000_000_000
    var claims = 0
    while monotonic() < end {
        let file = files.randomElement(using: &generator)!
        if Int.random(in: 0..<10, using: &generator) < 3 {
            try coordinator.coordinate(writingItemAt: file) { _ in }
        } else {
            try coordinator.coordinate(readingItemAt: file) { _ in }
        }
        claims += 1
    }
    print(claims)
}

func throughput(locks: URL, files: [URL], processes: Int, seconds: Int) throws {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var workers: [(Process, Pipe)] = []
    for _ in 0..<processes {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = executable
        process.arguments = ["worker", locks.path, String(seconds)] + files.map(\.path)
        process.standardOutput = pipe
        try process.run()
        workers.append((process, pipe))
    }
    var total = 0
    for (process, pipe) in workers {
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        total += Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    print(String(format: "contended: %d processes, 4 files, 30%% writes: %d claims in %d s = %.0f claims/s",
                 processes, total, seconds, Double(total) / Double(seconds)))
}

let arguments = CommandLine.arguments
if arguments.count > 3, arguments[1] == "worker" {
    try worker(locks: URL(fileURLWithPath: arguments[2]), files: arguments[4...].map { URL(fileURLWithPath: $0) },
               seconds: Int(arguments[3]) ?? 1)
    exit(0)
}
let (locks, files) = try makeTree()
defer {
    try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("ubq-bench-\(getpid())"))
    try? FileManager.default.removeItem(at: locks.deletingLastPathComponent())
}
let coordinator = try FileCoordinator(lockDirectory: locks)
let iterations = option("--iterations", 20000)
try latency(coordinator, files[0], write: false, iterations: iterations)
try latency(coordinator, files[0], write: true, iterations: iterations)
try throughput(locks: locks, files: files, processes: option("--processes", 8), seconds: option("--seconds", 3))
try indexerReads(coordinator, folder: files[0].deletingLastPathComponent(), count: option("--distinct", 10000))
