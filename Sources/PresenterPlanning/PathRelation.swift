/// How a presenter's item lies relative to an accessed item, by canonical path bytes.
public enum PathRelation: Sendable, Equatable {
    /// The presenter presents the accessed item itself.
    case same
    /// The presenter presents a folder that contains the accessed item (a folder presenter,
    /// told with the subitem forms).
    case ancestor
    /// The presenter's item lies inside the accessed folder: accessing the folder accesses it.
    case descendant

    private static let slash = UInt8(ascii: "/")

    /// The relation of the presenter at `presented` to the item at `accessed`, or nil when
    /// neither contains the other.
    public static func of(presented: [UInt8], accessed: [UInt8]) -> PathRelation? {
        if presented == accessed { return .same }
        if isStrictlyBelow(accessed, presented) { return .ancestor }
        if isStrictlyBelow(presented, accessed) { return .descendant }
        return nil
    }

    /// Whether `path` lies strictly below the folder `folder`.
    public static func isStrictlyBelow(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        if folder == [slash] { return path.count > 1 && path.first == slash }
        return path.count > folder.count && path.starts(with: folder) && path[folder.count] == slash
    }

    /// `path` (at or below `from`) with its `from` prefix replaced by `to`.
    public static func rebase(_ path: [UInt8], from: [UInt8], to: [UInt8]) -> [UInt8] {
        guard path.count > from.count else { return to }
        return to + path[from.count...]
    }
}
