import APIModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

extension DaemonClient {
    /// Sends a request whose answer is a stream of lines (NDJSON, `POST /v1/watch`) and
    /// hands each line to `line` as it arrives. Returns when ubqd ends the response; throws
    /// if it answers with an error or the connection ends mid-stream. Reads no faster than
    /// `line` returns, so a slow consumer slows the daemon's writer for this stream only.
    public func streamLines(_ route: String, body: some Encodable, line: (Data) -> Void) async throws(DaemonClientError) {
        let data: Data
        do { data = try JSONEncoder().encode(body) } catch { throw DaemonClientError(.protocolError, "cannot encode the request: \(error)") }
        let channel = try await connectForStreaming()
        do {
            try await channel.executeThenClose { inbound, outbound in
                try await Self.sendRequest(route: route, body: data, outbound)
                try await Self.readLines(inbound, line: line)
            }
        } catch let error as DaemonClientError {
            throw error
        } catch {
            throw DaemonClientError(.protocolError, "the connection to ubqd failed: \(error)")
        }
    }

    private func connectForStreaming() async throws(DaemonClientError) -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart> {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton.next())
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw DaemonClientError.notRunning(socketPath: socketPath, cause: error)
        }
    }

    private static func sendRequest(route: String, body: Data, _ outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>) async throws {
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: route)
        head.headers.add(name: "Host", value: "ubqd")
        head.headers.add(name: "Content-Type", value: "application/json")
        head.headers.add(name: "Content-Length", value: String(body.count))
        try await outbound.write(.head(head))
        try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
        try await outbound.write(.end(nil))
    }

    private static func readLines(_ inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>, line: (Data) -> Void) async throws {
        var status = HTTPResponseStatus.ok
        var pending = ByteBuffer()
        for try await part in inbound {
            switch part {
            case .head(let head): status = head.status
            case .body(var chunk):
                pending.writeBuffer(&chunk)
                if (200..<300).contains(status.code) { emitLines(from: &pending, line) }
            case .end:
                guard (200..<300).contains(status.code) else { throw rejection(status, Data(pending.readableBytesView)) }
                return
            }
        }
        throw DaemonClientError(.protocolError, "ubqd closed the stream before ending it")
    }

    private static func emitLines(from buffer: inout ByteBuffer, _ line: (Data) -> Void) {
        while let newline = buffer.readableBytesView.firstIndex(of: 0x0A) {
            let length = newline - buffer.readerIndex
            line(Data(buffer.readBytes(length: length) ?? []))
            buffer.moveReaderIndex(forwardBy: 1)
        }
        buffer.discardReadBytes()
    }

    private static func rejection(_ status: HTTPResponseStatus, _ body: Data) -> DaemonClientError {
        if let apiError = try? JSONDecoder().decode(APIError.self, from: body) { return DaemonClientError(apiError, status: Int(status.code)) }
        return DaemonClientError(.protocolError, "ubqd answered \(status): \(String(decoding: body, as: UTF8.self))")
    }
}
