/// The local API's routes (HTTP with JSON over the daemon's Unix socket). `docs/API.md`
/// shows each with a `curl --unix-socket` example.
public enum Route {
    public static let status = "/v1/status"
    public static let containers = "/v1/containers"
    public static let query = "/v1/query"
    public static let item = "/v1/item"
    public static let sync = "/v1/sync"
    /// A live query: NDJSON lines, one per gathered item, then one per update.
    public static let watch = "/v1/watch"
}
