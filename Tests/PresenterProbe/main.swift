// presenter-probe: a file presenter, or a coordinated writer, in its own process, for the
// presenter tests and the presenter benchmark. Every event is one line on stdout, written
// at once, so a test waits for lines, never for time. Settings come from the environment
// (UBQ_RUNTIME_DIR...), as for any app.
//
//   present PATH [--silent]
//       registers a presenter of PATH; prints "registered" (or "not-registered"), then one
//       line per call: "savePresentedItemChanges", "relinquishToWriter", "reacquire",
//       "didChange", "didMove NEWPATH", "subitemDidChange PATH", "didGain VERSION conflict=true
//       item=PATH", "didResolveConflict VERSION conflict=false", "didLose VERSION"... With --silent it never
//       calls the completion handlers of the asked methods. stdin "remove" unregisters it
//       ("removed"); end of stdin exits.
//   write PATH [--deadline S] [--text T]
//       appends T (default "x\n") to PATH under a coordinated write through ubqd; prints
//       "accessing MS" (milliseconds from the call to the accessor), then "done".
//   bench PATH --count N [--deadline S]
//       N coordinated writes of PATH; prints "latency p50 P50 p99 P99 us" (call to accessor).
//   kvs CONTAINER-ID
//       the container's key-value store, listening (KeyValueProbe.swift).
import Foundation
import Ubiquity

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    say("error \(message)")
    exit(64)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else { fail("usage: presenter-probe present|write|bench|kvs PATH [options]") }
let mode = arguments[0]
let path = arguments[1]

@MainActor func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

let deadline = Duration.milliseconds(Int64((Double(option("--deadline") ?? "5") ?? 5) * 1000))

switch mode {
case "present": await present(path, silent: arguments.contains("--silent"))
case "write":
    let elapsed = try await coordinatedAppend(path, text: option("--text") ?? "x\n", deadline: deadline)
    say("accessing \(String(format: "%.3f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))")
    say("done")
case "bench": try await bench(path, count: Int(option("--count") ?? "100") ?? 100, deadline: deadline)
case "kvs": await keyValues(path)
default: fail("unknown mode \(mode)")
}
