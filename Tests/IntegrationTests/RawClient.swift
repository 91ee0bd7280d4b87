import Foundation
import Glibc

/// A Unix stream socket to ubqd that sends exactly the bytes a test gives it: garbage,
/// half a request, a huge body, nothing at all. Non-blocking; every wait polls with a
/// deadline.
final class RawClient {
    let fd: Int32

    /// Connects to `path`. With `wait: false` a connection the listen backlog cannot take
    /// fails at once (EAGAIN) instead of blocking.
    init(_ path: String, wait: Bool = true) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (wait ? 0 : Int32(SOCK_NONBLOCK.rawValue)), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw HarnessError("connect \(path): \(String(cString: strerror(error)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Sends all of `bytes`, or as much as the peer takes before it shuts its side (EPIPE)
    /// or `timeout` passes. Returns how many bytes went out.
    @discardableResult
    func send(_ bytes: [UInt8], timeout: Duration = .seconds(30)) -> Int {
        let deadline = ContinuousClock.now + timeout
        var sent = 0
        while sent < bytes.count, ContinuousClock.now < deadline {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
            } else if errno == EAGAIN || errno == EINTR {
                wait(for: Int16(POLLOUT), until: deadline)
            } else {
                break  // EPIPE, ECONNRESET: the peer is done reading
            }
        }
        return sent
    }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Everything the peer sends until it closes the connection; nil if it is still open
    /// at `timeout`.
    func readToEnd(timeout: Duration = .seconds(30)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while true {
            switch readSome() {
            case .data(let chunk): received += chunk
            case .end: return received
            case .wouldBlock:
                guard ContinuousClock.now < deadline else { return nil }
                wait(for: Int16(POLLIN), until: deadline)
            }
        }
    }

    /// Reads until the bytes received contain `marker`; nil at `timeout` or end of stream.
    func read(until marker: String, timeout: Duration = .seconds(30)) -> String? {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        while !String(decoding: received, as: UTF8.self).contains(marker) {
            switch readSome() {
            case .data(let chunk): received += chunk
            case .end: return nil
            case .wouldBlock:
                guard ContinuousClock.now < deadline else { return nil }
                wait(for: Int16(POLLIN), until: deadline)
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    private enum Read { case data([UInt8]), end, wouldBlock }

    private func readSome() -> Read {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &buffer, buffer.count, 0)
        if n > 0 { return .data(Array(buffer.prefix(n))) }
        if n == 0 || (errno != EAGAIN && errno != EINTR) { return .end }  // ECONNRESET counts as the end
        return .wouldBlock
    }

    private func wait(for events: Int16, until deadline: ContinuousClock.Instant) {
        var poller = pollfd(fd: fd, events: events, revents: 0)
        let left = deadline - ContinuousClock.now
        _ = poll(&poller, 1, Int32(max(1, min(1000, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))))
    }
}

/// An HTTP response as read off a raw socket.
struct RawResponse {
    let status: Int
    let headers: String
    let body: String

    init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n"), text.hasPrefix("HTTP/1.1 "),
            let status = Int(text.dropFirst(9).prefix(3))
        else { return nil }
        self.status = status
        headers = String(text[..<split.lowerBound])
        body = String(text[split.upperBound...])
    }

    /// The body as a JSON object (the API's error bodies).
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
    }
}

extension DaemonHarness {
    var socketPath: String { base + "/run/ubqd.sock" }

    /// ubqd's process id.
    var pid: Int32 { process?.processIdentifier ?? -1 }

    /// How many descriptors ubqd has open now.
    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// How many sockets ubqd has open now: its listening socket and its connections.
    func openSockets() -> Int {
        let folder = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.filter { entry in
            var target = [CChar](repeating: 0, count: 64)
            let length = readlink(folder + "/" + entry, &target, target.count - 1)
            return length > 0 && String(cString: target).hasPrefix("socket:")
        }.count
    }

    /// ubqd's CPU time so far (user + system), from /proc/PID/stat.
    func cpuTime() throws -> Duration {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start at ")"; utime and stime
        // are fields 14 and 15, in clock ticks.
        guard let end = stat.lastIndex(of: ")") else { throw HarnessError("unexpected /proc/\(pid)/stat: \(stat)") }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        return .milliseconds(ticks * 1000 / Int(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// `ubq status` answers within `limit` and ubqd is still running: what every
    /// robustness test checks after its abuse.
    func expectResponsive(within limit: Duration = .seconds(5)) throws {
        let start = ContinuousClock.now
        let status = try ubq(["status"])
        let elapsed = ContinuousClock.now - start
        guard status.status == 0, elapsed < limit, process?.isRunning == true else {
            throw HarnessError("ubq status: exit \(status.status) after \(elapsed) (running: \(process?.isRunning ?? false)) \(status.errorText)\nubqd log:\n\(log())")
        }
    }

    /// Polls until `condition` holds; fails at `timeout`.
    func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw HarnessError("\(what) did not happen within \(timeout)\nubqd log:\n\(log())") }
            usleep(20_000)
        }
    }
}
