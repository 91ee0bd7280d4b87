/// The local API's routes (HTTP with JSON over the daemon's Unix socket). `docs/API.md`
/// shows each with a `curl --unix-socket` example.
public enum Route {
    public static let status = "/v1/status"
    public static let containers = "/v1/containers"
    public static let query = "/v1/query"
    /// The same query body, run over diary entries instead of items.
    public static let diaryEntryQuery = "/v1/diary-entries/query"
    public static let item = "/v1/item"
    public static let sync = "/v1/sync"
    public static let mirror = "/v1/mirror"
    public static let mirrorSync = "/v1/mirror/sync"
    public static let conflicts = "/v1/conflicts"
    public static let versions = "/v1/versions"
    /// The items deleted below a folder that `restore` can bring back.
    public static let deleted = "/v1/deleted"
    public static let resolve = "/v1/resolve"
    public static let restore = "/v1/restore"
    /// A live query: NDJSON lines, one per gathered item, then one per update.
    public static let watch = "/v1/watch"
    /// File presenters: the list (GET), a process's session stream (NDJSON), and its calls.
    public static let presenters = "/v1/presenters"
    public static let presentersConnect = "/v1/presenters/connect"
    public static let presentersAdd = "/v1/presenters/add"
    public static let presentersRemove = "/v1/presenters/remove"
    public static let presentersReply = "/v1/presenters/reply"
    /// A coordinated access announced before its claim, and its end.
    public static let coordinationBegin = "/v1/coordination/begin"
    public static let coordinationEnd = "/v1/coordination/end"
}
