import Coordination
import Foundation
import TestSupport

/// The items of the randomized test's tree, relative to its root ("" is the root folder).
let randomTreeNodes = ["", "a", "a/x", "a/b", "a/b/y", "a/b/z", "c", "c/w"]

/// Random overlapping claims on the test tree. Each claimed interval is logged with
/// CLOCK_MONOTONIC timestamps taken just after the claim is held and just before it is
/// released, one `write(2)` per line to a per-process O_APPEND file.
struct RandomWorkload {
    let arguments: Arguments
    let coordinator: FileCoordinator
    let log: Int32
    var random: SplitMix64

    init(_ arguments: Arguments, _ coordinator: FileCoordinator) throws {
        self.arguments = arguments
        self.coordinator = coordinator
        random = SplitMix64(seed: arguments.seed)
        log = open(arguments.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    mutating func nextItems() -> [(write: Bool, path: String)] {
        let count = Int.random(in: 0..<100, using: &random) < 15 ? 2 : 1
        var items: [(write: Bool, path: String)] = []
        while items.count < count {
            let node = randomTreeNodes.randomElement(using: &random)!
            let path = node.isEmpty ? arguments.root : arguments.root + "/" + node
            if items.contains(where: { $0.path == path }) { continue }
            items.append((Int.random(in: 0..<100, using: &random) < 40, path))
        }
        if count == 2 && !items[0].write && !items[1].write { items[1].write = true }
        return items
    }

    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(log, $0.baseAddress, $0.count) }
    }

    static func monotonic() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    mutating func run() throws {
        var timeouts = 0
        for id in 0..<arguments.count {
            let items = nextItems()
            let holdMicroseconds = UInt32.random(in: 0...3000, using: &random)
            let impatient = Int.random(in: 0..<100, using: &random) < 25
            let timeout: Duration = impatient
                ? .microseconds(Int.random(in: 0...5000, using: &random)) : arguments.timeout ?? .seconds(1)
            do {
                try claim(coordinator, items, timeout: timeout) { _ in
                    let acquired = RandomWorkload.monotonic()
                    for item in items {
                        append("A \(id) \(acquired) \(item.write ? "w" : "r") \(item.path)")
                    }
                    usleep(holdMicroseconds)
                    append("R \(id) \(RandomWorkload.monotonic())")
                }
            } catch let error as CoordinationError where error.code == .timedOut {
                timeouts += 1
            }
        }
        say("done \(arguments.count) timeouts \(timeouts)")
    }
}
