/// Names one change in the mirror: the device that made it and its place in that
/// device's log. Unique without coordination, because each device numbers only its own.
public struct VersionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var device: String
    public var sequence: UInt64

    public init(device: String, sequence: UInt64) {
        self.device = device
        self.sequence = sequence
    }

    /// `DEVICE:SEQUENCE`, the form used in logs and on the command line.
    public init?(_ text: some StringProtocol) {
        guard let colon = text.lastIndex(of: ":"), let sequence = UInt64(text[text.index(after: colon)...]) else { return nil }
        let device = String(text[..<colon])
        guard !device.isEmpty else { return nil }
        self.init(device: device, sequence: sequence)
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

    public init(id: VersionID, path: String, parents: [VersionID], state: EntryState?, time: Int64, movedFrom: String? = nil) {
        self.id = id
        self.path = path
        self.parents = parents
        self.state = state
        self.time = time
        self.movedFrom = movedFrom
    }

    public var isDeletion: Bool { state == nil }
}
