// coordination-probe: takes coordinated claims for the cross-process tests and reports them
// line by line on stdout (flushed at once), so a test can wait for events, not for time.
//
//   hold --locks DIR (--read PATH | --write PATH){1,2} [--timeout S]
//       prints "waiting", then "acquired URL..." and holds the claim until stdin says
//       "release" (or closes), then prints "released"; on failure "error CODE MESSAGE", exit 2.
//   loop --locks DIR --write P --write Q --count N
//       N write-and-write claims; prints "done N".
//   random --locks DIR --root DIR --seed S --count N --log FILE [--timeout S]
//       N random claims on the test tree; logs "A id t mode path" / "R id t" lines with
//       CLOCK_MONOTONIC nanoseconds to FILE; prints "done N timeouts T".
import Coordination
import Foundation

/// One unbuffered `write(2)` per line, so the test sees it at once.
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    say("error usage \(message)")
    exit(64)
}

struct Arguments {
    var mode = ""
    var locks = ""
    var items: [(write: Bool, path: String)] = []
    var timeout: Duration?
    var count = 1
    var root = ""
    var seed: UInt64 = 0
    var log = ""

    init(_ raw: [String]) {
        guard let first = raw.first else { fail("no mode") }
        mode = first
        var rest = raw.dropFirst().makeIterator()
        while let flag = rest.next() {
            guard let value = rest.next() else { fail("\(flag) needs a value") }
            switch flag {
            case "--locks": locks = value
            case "--read": items.append((false, value))
            case "--write": items.append((true, value))
            case "--timeout": timeout = .milliseconds(Int((Double(value) ?? 0) * 1000))
            case "--count": count = Int(value) ?? 1
            case "--root": root = value
            case "--seed": seed = UInt64(value) ?? 0
            case "--log": log = value
            default: fail("unknown flag \(flag)")
            }
        }
    }
}

/// Takes the claim described by `items` and runs `body` with the URLs it received.
func claim(
    _ coordinator: FileCoordinator, _ items: [(write: Bool, path: String)], timeout: Duration?,
    _ body: ([URL]) throws -> Void
) throws {
    let urls = items.map { URL(fileURLWithPath: $0.path) }
    switch (items.count, items.first?.write, items.last?.write) {
    case (1, false, _):
        try coordinator.coordinate(readingItemAt: urls[0], timeout: timeout) { try body([$0]) }
    case (1, true, _):
        try coordinator.coordinate(writingItemAt: urls[0], timeout: timeout) { try body([$0]) }
    case (2, false, true):
        try coordinator.coordinate(readingItemAt: urls[0], writingItemAt: urls[1], timeout: timeout) { try body([$0, $1]) }
    case (2, true, false):
        try coordinator.coordinate(readingItemAt: urls[1], writingItemAt: urls[0], timeout: timeout) { try body([$1, $0]) }
    case (2, true, true):
        try coordinator.coordinate(writingItemAt: urls[0], writingItemAt: urls[1], timeout: timeout) { try body([$0, $1]) }
    default:
        fail("unsupported claim \(items)")
    }
}

func hold(_ arguments: Arguments, _ coordinator: FileCoordinator) {
    say("waiting")
    do {
        try claim(coordinator, arguments.items, timeout: arguments.timeout) { urls in
            say("acquired " + urls.map(\.path).joined(separator: " "))
            while let line = readLine(), line != "release" {}
        }
        say("released")
    } catch let error as CoordinationError {
        say("error \(error.code) \(error.message)")
        exit(2)
    } catch {
        say("error other \(error)")
        exit(2)
    }
}

func loop(_ arguments: Arguments, _ coordinator: FileCoordinator) throws {
    for _ in 0..<arguments.count {
        try claim(coordinator, arguments.items, timeout: arguments.timeout) { _ in }
    }
    say("done \(arguments.count)")
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
do {
    let coordinator = try FileCoordinator(lockDirectory: URL(fileURLWithPath: arguments.locks))
    switch arguments.mode {
    case "hold": hold(arguments, coordinator)
    case "loop": try loop(arguments, coordinator)
    case "random":
        var workload = try RandomWorkload(arguments, coordinator)
        try workload.run()
    default: fail("unknown mode \(arguments.mode)")
    }
} catch {
    say("error setup \(error)")
    exit(1)
}
