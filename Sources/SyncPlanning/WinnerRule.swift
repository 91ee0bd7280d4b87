/// Chooses the current version among concurrent heads, the same way on every device,
/// from the records alone (nothing local enters into it):
/// 1. an existing item beats a deletion (an edit against a delete: the edit wins);
/// 2. then the later change wins (by the writer's clock);
/// 3. then the greater version id, so equal times still give one answer.
public enum WinnerRule {
    public static func prefers(_ a: VersionRecord, over b: VersionRecord) -> Bool {
        if a.isDeletion != b.isDeletion { return !a.isDeletion }
        if a.time != b.time { return a.time > b.time }
        return a.id > b.id
    }

    public static func winner(of heads: some Sequence<VersionRecord>) -> VersionRecord? {
        heads.reduce(nil) { best, record in
            guard let best else { return record }
            return prefers(record, over: best) ? record : best
        }
    }
}
