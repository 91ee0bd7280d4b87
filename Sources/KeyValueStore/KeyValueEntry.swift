import KeyedArchive

/// One key's last change: a value set, or the key removed (no value), when and by whom.
/// Two stores merge key by key, the later change winning (`wins(over:)`), so a removal
/// made after a set wins over it, and a set made after a removal brings the key back.
public struct KeyValueEntry: Sendable, Equatable {
    /// Nil: the key was removed (kept as such, so the removal reaches the other devices).
    public var value: PlistValue?
    /// When the change was made: milliseconds since 1970, by the writer's clock, but never
    /// before the change it replaced (`KeyValueSnapshot.set`).
    public var time: Int64
    /// Who made it (a host name): it orders changes made in the same millisecond.
    public var writer: String

    public init(value: PlistValue?, time: Int64, writer: String) {
        self.value = value
        self.time = time
        self.writer = writer
    }

    /// Whether this change is the later of the two, the same way on every device: by time,
    /// then writer, then the value's encoding (a set beats a removal made with the same
    /// time and writer).
    public func wins(over other: KeyValueEntry) -> Bool {
        if time != other.time { return time > other.time }
        if writer != other.writer { return other.writer.utf8.lexicographicallyPrecedes(writer.utf8) }
        return Self.order(other.value).lexicographicallyPrecedes(Self.order(value))
    }

    /// Equal entries hold the same value as bytes: `PlistValue`'s own `==` finds a NaN
    /// unequal to itself, which would make every synchronize see a change and write.
    public static func == (left: KeyValueEntry, right: KeyValueEntry) -> Bool {
        left.time == right.time && left.writer == right.writer && same(left.value, right.value)
    }

    /// Whether two values (nil: removed) are the same, as their binary property lists.
    public static func same(_ left: PlistValue?, _ right: PlistValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): order(left) == order(right)
        default: false
        }
    }

    /// A removal sorts first; values by their binary property-list bytes.
    private static func order(_ value: PlistValue?) -> [UInt8] {
        value.map { [1] + ((try? PropertyList.encode($0, format: .binary)) ?? []) } ?? [0]
    }
}
