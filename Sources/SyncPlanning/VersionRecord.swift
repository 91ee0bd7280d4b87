/// Names one change in the mirror: the device that made it and its place in that
/// device's log. Unique without coordination, because each device numbers only its own.
public struct VersionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var device: String
    public var sequence: UInt64

    public init(device: String, sequence: UInt64) {
        self.device = device
        self.sequence = sequence
    }

    /// `DEVICE:SEQUENCE`, the form used in logs and on the command line: a non-empty
    /// device, the last `:`, and decimal digits that fit in 64 bits.
    ///
    /// Read as UTF-8 bytes: a restart parses every parent in every log and every base row
    /// this way. The generic `StringProtocol` version (characters, an unspecialized `UInt64`
    /// parse) took 0.35 s of the 5.5 s of CPU of a restart's first pass with 214,000
    /// versions; this one 0.01 s (perf samples).
    public init?(_ text: String) {
        var text = text
        guard let (device, sequence) = text.withUTF8(Self.parse) else { return nil }
        self.init(device: device, sequence: sequence)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, UInt64)? {
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1 else { return nil }
        var sequence: UInt64 = 0
        for byte in bytes[(colon + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = sequence.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            sequence = sum
        }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self), sequence)
    }

    public var description: String { "\(device):\(sequence)" }

    public static func < (a: VersionID, b: VersionID) -> Bool {
        (a.device, a.sequence) < (b.device, b.sequence)
    }
}

/// One entry of a device's log: the state a path took (or its deletion), and the
/// versions it was based on. A change based on the same parent as another change made
/// elsewhere is concurrent with it: both become heads, and the winner rule picks one.
public struct VersionRecord: Hashable, Sendable {
    public var id: VersionID
    /// The container-relative path, NFC, `/`-separated.
    public var path: String
    /// The versions this one replaces: none for a new item, one for an edit, several for
    /// a resolution or a merge.
    public var parents: [VersionID]
    /// The new state; nil records a deletion.
    public var state: EntryState?
    /// When the change was made, in milliseconds since 1970 (UTC), by the writer's clock.
    public var time: Int64
    /// Set when the change is the arrival half of a rename: the path it came from. Lets a
    /// device rename its local copy instead of downloading the content again.
    public var movedFrom: String?
    /// Set when the change removes the versions it descends from (of its path) from the
    /// history, whatever the retention: NSFileVersion's `removeOtherVersionsOfItem`.
    public var forgetsAncestors: Bool

    public init(
        id: VersionID, path: String, parents: [VersionID], state: EntryState?, time: Int64, movedFrom: String? = nil,
        forgetsAncestors: Bool = false
    ) {
        self.id = id
        self.path = path
        self.parents = parents
        self.state = state
        self.time = time
        self.movedFrom = movedFrom
        self.forgetsAncestors = forgetsAncestors
    }

    public var isDeletion: Bool { state == nil }
}
