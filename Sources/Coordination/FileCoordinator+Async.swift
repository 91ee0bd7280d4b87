import Foundation

// MARK: - Async forms

/// The async forms wait with `Task.sleep` between attempts instead of blocking a thread, and
/// end with `CoordinationError.Code.cancelled` when their task is cancelled as well as on
/// `cancel()`. The accessor runs on the caller's task while the claim is held. Their label is
/// `byAsyncAccessor:` because Swift would otherwise pick the blocking form for any closure
/// without an `await`, even in async code, and block a cooperative thread while waiting.
/// They run on the caller's actor (`#isolation`), so an accessor may touch its state.
extension FileCoordinator {
    func withClaim<T>(
        _ items: [RequestedItem], timeout: Duration?, isolation: isolated (any Actor)?,
        _ body: ([URL]) async throws -> T
    ) async throws -> T {
        try await withClaim(items, timeout: timeout, isolation: isolation) { urls, _ in try await body(urls) }
    }

    /// `withClaim`, whose body also gets the paths to use as bytes.
    func withClaim<T>(
        _ items: [RequestedItem], timeout: Duration?, isolation: isolated (any Actor)?,
        _ body: ([URL], [[UInt8]]) async throws -> T
    ) async throws -> T {
        let session = try Session(coordinator: self, items: items, timeout: timeout ?? defaultTimeout)
        let ticket = await relay?.accessWillBegin(session.announcement)
        var outcome = AnnouncedAccess.Outcome(accessed: false, moves: [])
        do {
            while true {
                switch try session.poll(taskCancelled: Task.isCancelled) {
                case .wait(let nanoseconds):
                    if nanoseconds > 0 { try? await Task.sleep(nanoseconds: UInt64(nanoseconds)) }
                case .ready(let claim, let urls):
                    let result: Result<T, any Error>
                    let paths = session.paths
                    do {
                        let enclosing = EnclosingClaims.held.union(claim.heldLockFiles)
                        result = .success(try await EnclosingClaims.$held.withValue(enclosing) { try await body(urls, paths) })
                    } catch {
                        result = .failure(error)
                    }
                    outcome = session.finish(claim, reporting: ticket != nil)
                    if let relay, let ticket { await relay.accessDidEnd(ticket, outcome) }
                    return try result.get()
                }
            }
        } catch {
            if let relay, let ticket, !outcome.accessed { await relay.accessDidEnd(ticket, outcome) }
            throw error
        }
    }

    /// Async form of `coordinate(readingItemAt:options:timeout:byAccessor:)`.
    @discardableResult
    public func coordinate<T>(
        readingItemAt url: URL, options: ReadingOptions = [], timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation, byAsyncAccessor reader: (URL) async throws -> T
    ) async throws -> T {
        try await withClaim([RequestedItem(url: url, access: .reading(options))], timeout: timeout, isolation: isolation) {
            try await reader($0[0])
        }
    }

    /// Async form of `coordinate(writingItemAt:options:timeout:byAccessor:)`.
    @discardableResult
    public func coordinate<T>(
        writingItemAt url: URL, options: WritingOptions = [], timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation, byAsyncAccessor writer: (URL) async throws -> T
    ) async throws -> T {
        try await withClaim([RequestedItem(url: url, access: .writing(options))], timeout: timeout, isolation: isolation) {
            try await writer($0[0])
        }
    }

    /// Async form of `coordinate(readingItemAtPath:options:timeout:byAccessor:)`: a path
    /// given as bytes (a name that is not UTF-8, which a URL cannot hold).
    @discardableResult
    public func coordinate<T>(
        readingItemAtPath path: [UInt8], options: ReadingOptions = [], timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation, byAsyncAccessor reader: ([UInt8]) async throws -> T
    ) async throws -> T {
        try await withClaim([RequestedItem(rawPath: path, access: .reading(options))], timeout: timeout, isolation: isolation) {
            _, paths in try await reader(paths[0])
        }
    }

    /// Async form of `coordinate(writingItemAtPath:options:timeout:byAccessor:)`.
    @discardableResult
    public func coordinate<T>(
        writingItemAtPath path: [UInt8], options: WritingOptions = [], timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation, byAsyncAccessor writer: ([UInt8]) async throws -> T
    ) async throws -> T {
        try await withClaim([RequestedItem(rawPath: path, access: .writing(options))], timeout: timeout, isolation: isolation) {
            _, paths in try await writer(paths[0])
        }
    }

    /// Async form of the read-then-write `coordinate(readingItemAt:options:writingItemAt:options:...)`.
    @discardableResult
    public func coordinate<T>(
        readingItemAt readingURL: URL, options readingOptions: ReadingOptions = [],
        writingItemAt writingURL: URL, options writingOptions: WritingOptions = [],
        timeout: Duration? = nil, isolation: isolated (any Actor)? = #isolation,
        byAsyncAccessor body: (URL, URL) async throws -> T
    ) async throws -> T {
        let items = [
            RequestedItem(url: readingURL, access: .reading(readingOptions)),
            RequestedItem(url: writingURL, access: .writing(writingOptions)),
        ]
        return try await withClaim(items, timeout: timeout, isolation: isolation) { try await body($0[0], $0[1]) }
    }

    /// Async form of the write-and-write `coordinate(writingItemAt:options:writingItemAt:options:...)`.
    @discardableResult
    public func coordinate<T>(
        writingItemAt url1: URL, options options1: WritingOptions = [],
        writingItemAt url2: URL, options options2: WritingOptions = [],
        timeout: Duration? = nil, isolation: isolated (any Actor)? = #isolation,
        byAsyncAccessor body: (URL, URL) async throws -> T
    ) async throws -> T {
        let items = [
            RequestedItem(url: url1, access: .writing(options1)),
            RequestedItem(url: url2, access: .writing(options2)),
        ]
        return try await withClaim(items, timeout: timeout, isolation: isolation) { try await body($0[0], $0[1]) }
    }
}
