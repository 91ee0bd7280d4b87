import Foundation
import Glibc

/// A datagram socket bound where `NOTIFY_SOCKET` points, so a test hears what the daemon
/// tells systemd (`READY=1`, `STATUS=...`, `STOPPING=1`).
final class NotifySocket: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw HarnessError("cannot bind the notify socket at \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Waits until a message containing `field` arrives (or `timeout` passes, or
    /// `hopeless` says none can come) and returns it; a message that already arrived counts.
    func waitFor(_ field: String, timeout: Duration = .seconds(60), hopeless: () -> String? = { nil }) throws -> String {
        if let seen = messages.first(where: { Self.message($0, has: field) }) { return seen }
        return try waitForNew(field, timeout: timeout, hopeless: hopeless)
    }

    /// Waits for the next message containing `field` that has not arrived yet. `hopeless`
    /// gives the reason none can come any more (the daemon exited), or nil.
    func waitForNew(_ field: String, timeout: Duration, hopeless: () -> String? = { nil }) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let gone = hopeless()  // asked before the read: what was sent before an exit is still read
            if let message = receive(pollMilliseconds: gone == nil ? 100 : 0) {
                if Self.message(message, has: field) { return message }
                continue
            }
            if let gone { throw HarnessError("no \(field) from ubqd: \(gone)") }
        }
        throw HarnessError("no \(field) from ubqd within \(timeout); got: \(messages)")
    }

    private func receive(pollMilliseconds: Int32) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, pollMilliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        let message = String(decoding: buffer.prefix(n), as: UTF8.self)
        messages.append(message)
        return message
    }

    private static func message(_ message: String, has field: String) -> Bool {
        message.split(separator: "\n").contains { $0.hasPrefix(field) }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension NotifySocket {
    /// Waits until `count` messages containing `field` have arrived; returns their arrival times.
    func waitForMessages(_ field: String, count: Int, timeout: Duration = .seconds(60)) throws -> [ContinuousClock.Instant] {
        var arrivals: [ContinuousClock.Instant] = []
        let deadline = ContinuousClock.now + timeout
        while arrivals.count < count {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw HarnessError("only \(arrivals.count) of \(count) \(field) messages within \(timeout)") }
            _ = try waitForNew(field, timeout: remaining)
            arrivals.append(.now)
        }
        return arrivals
    }
}
