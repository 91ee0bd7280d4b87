import Foundation
/// The one-line status systemd shows (`STATUS=`) and `/v1/status` reports: the index's
/// state. Sync has its own per container (`ubq status` prints it below), so "up to date"
/// says which it is about: a container whose sync is paused is not.
enum StatusLine {
    /// `contentPending` nil: some items wait for their content, not counted (READY does not
    /// wait for counting them).
    static func text(containers: Int, items: Int, pending: Int, contentPending: Int? = 0, indexError: String? = nil) -> String {
        let base = "\(count(containers, "container")), \(count(items, "item"))"
        var work: [String] = []
        if let indexError { work.append("index behind the disk, retrying (\(indexError))") }
        if pending > 0 { work.append("\(count(pending, "change")) settling") }
        if let contentPending {
            if contentPending > 0 { work.append("reading content of \(count(contentPending, "item"))") }
        } else {
            work.append("reading content")
        }
        return base + ", " + (work.isEmpty ? "index up to date" : work.joined(separator: ", "))
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n.formatted(.number)) \(noun)\(n == 1 ? "" : "s")"
    }
}

public enum DaemonVersion {
    public static let current = "0.1.0"
}
