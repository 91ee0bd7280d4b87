import APIModel
import DaemonClient
import Foundation
import Glibc

/// Shows a pass's progress on standard error while `ubq sync` waits for it: only when
/// standard error is a terminal (scripts and tests get nothing extra), redrawn in place
/// with `\r`, from `GET /v1/mirror` polled ten times a second at most.
struct SyncProgressDisplay {
    let client: DaemonClient
    static let interval = Duration.milliseconds(100)

    /// Whether a bar would be seen at all.
    static var isWanted: Bool { isatty(STDERR_FILENO) == 1 }

    /// Draws until cancelled, then clears the line. A failed poll only skips a frame: the
    /// sync request itself reports errors.
    func run() async {
        var drawn = false
        while !Task.isCancelled {
            if let status = try? await client.get(Route.mirror, as: MirrorStatus.self), let line = Self.line(status, width: Self.terminalWidth() - 1) {
                Self.write("\r" + line + "\u{1B}[K")
                drawn = true
            }
            try? await Task.sleep(for: Self.interval)
        }
        if drawn { Self.write("\r\u{1B}[K") }
    }

    /// The progress bar, or while the mirror does not answer, how long it has not; nil
    /// when there is nothing to show.
    static func line(_ status: MirrorStatus, width: Int) -> String? {
        if let waited = status.containers.compactMap(\.mirrorUnansweredSeconds).max() {
            return String("waiting for the mirror: no answer for \(waited) s (ubq status tells more)".prefix(max(width, 0)))
        }
        return current(status).map { ProgressBar.render($0, width: width) }
    }

    /// The sum over the containers that are syncing now; nil when none has work under way.
    static func current(_ status: MirrorStatus) -> SyncProgress? {
        let running = status.containers.compactMap { $0.phase == .syncing ? $0.progress : nil }
        return running.isEmpty ? nil : SyncProgress.sum(running)
    }

    private static func write(_ text: String) {
        Output.write(Array(text.utf8), to: STDERR_FILENO)
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
