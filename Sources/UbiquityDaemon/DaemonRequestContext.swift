import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the connection's channel, so that a live query can
/// hang up on a client that stopped reading, and with the API's body size limit.
struct DaemonRequestContext: RequestContext {
    /// The largest request body ubqd reads (1 MiB): every route takes a small JSON object.
    /// A larger one is answered 413 (`APIErrorMiddleware`).
    static let maximumBodySize = 1 << 20

    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    var maxUploadSize: Int { Self.maximumBodySize }
}
