import APIModel

/// The one-line progress bar `ubq sync` draws on a terminal, e.g.
/// `[#########-----------]  45%  135/300 actions  1.2 MiB/2.6 MiB`. Pure: the caller
/// decides where and how often to draw it.
public enum ProgressBar {
    /// The narrowest bar worth drawing; below it the line shows the figures alone.
    static let narrowestBar = 10

    /// `progress` in at most `width` columns. The figures come first in importance: the bar
    /// shrinks (and goes) before they are cut.
    public static func render(_ progress: SyncProgress, width: Int) -> String {
        let figures = "\(percentText(progress))  \(progress.done)/\(progress.total) actions"
            + (progress.bytesTotal > 0 ? "  \(bytes(progress.bytesDone))/\(bytes(progress.bytesTotal))" : "")
        let barWidth = width - figures.count - 3  // "[", "]" and a space
        guard barWidth >= narrowestBar else { return String(figures.prefix(max(width, 0))) }
        let filled = Int((fraction(progress) * Double(barWidth)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "] " + figures
    }

    /// The share done: by bytes when there are bytes to move (they take the time), else
    /// by actions. Never above 1, and 1 for a pass with nothing to do.
    static func fraction(_ progress: SyncProgress) -> Double {
        let (done, total) =
            progress.bytesTotal > 0
            ? (Double(progress.bytesDone), Double(progress.bytesTotal)) : (Double(progress.done), Double(progress.total))
        guard total > 0 else { return 1 }
        return min(max(done / total, 0), 1)
    }

    /// ` 45%`: right-aligned in four columns, so the line does not jitter as it grows.
    static func percentText(_ progress: SyncProgress) -> String {
        let percent = String(Int((fraction(progress) * 100).rounded(.down))) + "%"
        return String(repeating: " ", count: max(0, 4 - percent.count)) + percent
    }

    /// `512 B`, `1.5 KiB`, `2.0 MiB`, `3.1 GiB`: binary units, one decimal above bytes.
    public static func bytes(_ count: Int64) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB", "PiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
