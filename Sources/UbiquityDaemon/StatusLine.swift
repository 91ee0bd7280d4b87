import Foundation
/// The one-line status systemd shows (`STATUS=`) and `/v1/status` reports.
enum StatusLine {
    static func text(containers: Int, items: Int, pending: Int) -> String {
        let base = "\(count(containers, "container")), \(count(items, "item"))"
        return pending == 0 ? base + ", up to date" : base + ", \(count(pending, "change")) settling"
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n.formatted(.number)) \(noun)\(n == 1 ? "" : "s")"
    }
}

public enum DaemonVersion {
    public static let current = "0.1.0"
}
