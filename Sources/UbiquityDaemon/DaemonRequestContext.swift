import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the connection's channel, so that a live query can
/// hang up on a client that stopped reading.
struct DaemonRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
