/// The name a device is shown by to the others: in conflict copies
/// (`notes (conflict from laptop 2026-11-22).txt`), `ubq versions` and `ubq conflicts`.
///
/// A device is known by its id; the name is for people, so two devices may share one (two
/// machines a Debian installer both called `debian`): that is why it can be set
/// (`device_name`, `UBQ_DEVICE_NAME`).
public enum DeviceName {
    /// The most bytes of UTF-8 a name may take: a conflict copy's name shows it whole, within
    /// the 255 bytes a file name may have.
    public static let longestBytes = 64

    /// `raw` without surrounding white space, if it is a name a person can read and a file
    /// name can hold; else an error naming `source` and the fix.
    static func valid(_ raw: String, from source: SettingSource) throws(SettingsError) -> String {
        let name = raw.trimmingWhiteSpace()
        guard !name.isEmpty else {
            throw source.error(.invalidValue, "\(source.phrase) is empty; name this device as other devices should show it, e.g. \"laptop\"")
        }
        if let (offset, scalar) = name.unicodeScalars.enumerated().first(where: { isUnreadable($0.element) }) {
            let code = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw source.error(.invalidValue, "\(source.phrase) holds a control character (\(code)) at character \(offset + 1); use letters, digits, spaces and punctuation")
        }
        guard name.utf8.count <= longestBytes else {
            throw source.error(.invalidValue, "\(source.phrase) is \(name.utf8.count) bytes long; use at most \(longestBytes) (conflict copies are named after it)")
        }
        return name
    }

    /// A name another device wrote in the mirror, made safe to show and to put in a file
    /// name: control characters (a newline, an escape sequence that would drive the
    /// terminal, a bidirectional override) become `?`, and `/` becomes `-`. Nil when
    /// nothing readable is left.
    public static func displayable(_ raw: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            scalars.append(isUnreadable(scalar) ? "?" : scalar == "/" ? "-" : scalar)
        }
        let name = String(scalars).trimmingWhiteSpace()
        return name.isEmpty ? nil : name
    }

    /// C0 and C1 controls, DEL, the line and paragraph separators, and the bidirectional
    /// controls (U+202E would show `notes (conflict from \u{202E}txt.exe` as ending in
    /// `exe.txt`).
    private static func isUnreadable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || [0x2028, 0x2029, 0x061C, 0x200E, 0x200F].contains(scalar.value)
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}

extension String {
    fileprivate func trimmingWhiteSpace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
