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

    /// Waits until a message containing `field` arrives (or `timeout` passes) and returns it.
    func waitFor(_ field: String, timeout: Duration = .seconds(60)) throws -> String {
        if let seen = messages.first(where: { $0.split(separator: "\n").contains { $0.hasPrefix(field) } }) { return seen }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buffer, buffer.count, 0)
            guard n > 0 else { continue }
            let message = String(decoding: buffer.prefix(n), as: UTF8.self)
            messages.append(message)
            if message.split(separator: "\n").contains(where: { $0.hasPrefix(field) }) { return message }
        }
        throw HarnessError("no \(field) from ubqd within \(timeout); got: \(messages)")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
