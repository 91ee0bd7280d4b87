import Foundation
import Glibc

/// Sends sd_notify messages (`READY=1`, `STATUS=...`, `WATCHDOG=1`, `STOPPING=1`) as
/// datagrams to `$NOTIFY_SOCKET`, without ever blocking. Does nothing when the daemon was
/// not started by systemd.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// How often systemd expects `WATCHDOG=1` at the latest (`WatchdogSec=`, passed as
    /// `$WATCHDOG_USEC`); nil when no watchdog is set for this process.
    public let watchdogTimeout: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogTimeout = Self.watchdogTimeout(environment)
    }

    /// sd_watchdog_enabled(3): `WATCHDOG_USEC` > 0, and `WATCHDOG_PID`, when set, names us
    /// (a child that inherited the variables must not ping for its parent).
    static func watchdogTimeout(_ environment: [String: String]) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != getpid() { return nil }
        return .microseconds(usec)
    }

    public var isActive: Bool { socketPath != nil }

    public func notify(_ fields: String...) {
        guard let socketPath else { return }
        send(fields.joined(separator: "\n"), to: socketPath)
    }

    private func send(_ message: String, to path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // A leading '@' names an abstract socket: its first byte is NUL.
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        _ = message.withCString { text in
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    // Never wait: a notification socket nobody reads fills after a few
                    // datagrams (net.unix.max_dgram_qlen), and a blocked send would stall the
                    // loop that sent it (the watchdog ping comes from the index pipeline's).
                    // A notification that does not fit is dropped; systemd reads at once.
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), $0, length)
                }
            }
        }
    }
}
