import APIModel
import DaemonClient
import Foundation

extension PresenterConnection {
    /// One line of the stream, on the event loop: decoded and handed to the presenter's queue.
    func received(_ data: Data) {
        guard let line = try? JSONDecoder().decode(PresenterLine.self, from: data) else { return }
        switch line.kind {
        case .connected: if let session = line.session { connected(session) }
        case .request, .notice: deliver(line)
        case .closed: break  // the end of the stream follows
        }
    }

    private func deliver(_ line: PresenterLine) {
        guard let id = line.presenter, let messages = line.messages else { return }
        let (entry, session) = state.withLock { ($0.entries[id], $0.session) }
        let request = line.request
        let asked = line.kind == .request
        guard let presenter = entry?.presenter else {
            if asked, let request, let session { reply(session, request, id, error: "no such presenter here any more") }
            return
        }
        run(messages[...], presenter: presenter, id: id, request: request, firstError: nil) { [weak self] error in
            if asked, let request, let session { self?.reply(session, request, id, error: error) }
        }
    }

    private func reply(_ session: String, _ request: Int, _ id: String, error: String?) {
        let answer = PresenterReply(session: session, request: request, presenter: id, error: error)
        client.postDetached(Route.presentersReply, body: answer) { _ in }
    }

    /// Runs the messages one after the other on the presenter's queue: each waits for the
    /// completion handler of the one before. `done` gets the first error reported.
    private func run(
        _ messages: ArraySlice<PresenterMessage>, presenter: any FilePresenter, id: String, request: Int?, firstError: String?,
        done: @escaping @Sendable (String?) -> Void
    ) {
        guard let message = messages.first else { return done(firstError) }
        presenter.presentedItemOperationQueue.addOperation { [self] in
            perform(message, presenter: presenter, id: id, request: request) { [self] error in
                run(messages.dropFirst(), presenter: presenter, id: id, request: request, firstError: firstError ?? error, done: done)
            }
        }
    }

    private func perform(
        _ message: PresenterMessage, presenter: any FilePresenter, id: String, request: Int?,
        next: @escaping @Sendable (String?) -> Void
    ) {
        let failure: @Sendable ((any Error)?) -> Void = { error in next(error.map { "\($0)" }) }
        switch message.kind {
        case .savePresentedItemChanges: presenter.savePresentedItemChanges(completionHandler: failure)
        case .relinquishToReader:
            presenter.relinquishPresentedItem(toReader: { [self] reacquirer in keep(reacquirer, request, id); next(nil) })
        case .relinquishToWriter:
            presenter.relinquishPresentedItem(toWriter: { [self] reacquirer in keep(reacquirer, request, id); next(nil) })
        case .accommodateDeletion: presenter.accommodatePresentedItemDeletion(completionHandler: failure)
        case .accommodateSubitemDeletion:
            presenter.accommodatePresentedSubitemDeletion(at: Self.url(message.rawPath), completionHandler: failure)
        default:
            tell(message, presenter: presenter, id: id, request: request)
            next(nil)
        }
    }

    /// The messages that need no answer.
    private func tell(_ message: PresenterMessage, presenter: any FilePresenter, id: String, request: Int?) {
        switch message.kind {
        case .reacquire: for reacquirer in takeReacquirers(request, id) { reacquirer() }
        case .didChange: presenter.presentedItemDidChange()
        case .didMove:
            if let path = message.rawPath { state.withLock { $0.entries[id]?.path = Array(path) } }
            presenter.presentedItemDidMove(to: Self.url(message.rawPath))
        case .subitemDidChange: presenter.presentedSubitemDidChange(at: Self.url(message.rawPath))
        case .subitemDidAppear: presenter.presentedSubitemDidAppear(at: Self.url(message.rawPath))
        case .subitemDidMove: presenter.presentedSubitem(at: Self.url(message.rawPath), didMoveTo: Self.url(message.rawDestination))
        case .didGainVersion: if let version = fileVersion(message, presenter: presenter, id: id) { presenter.presentedItemDidGain(version) }
        case .didResolveConflictVersion:
            if let version = fileVersion(message, presenter: presenter, id: id) { presenter.presentedItemDidResolveConflict(version) }
        case .didLoseVersion: if let version = fileVersion(message, presenter: presenter, id: id) { presenter.presentedItemDidLose(version) }
        default: break
        }
    }

    /// The version a `didGainVersion` or `didResolveConflictVersion` names, of the item as
    /// the presenter presents it.
    private func fileVersion(_ message: PresenterMessage, presenter: any FilePresenter, id: String) -> FileVersion? {
        guard let info = message.version, let item = message.item else { return nil }
        let presented = presenter.presentedItemURL ?? state.withLock { $0.entries[id]?.path }.map { Self.url(Data($0)) }
        guard let itemURL = presented else { return nil }
        return FileVersion(info, of: item, at: itemURL, socketPath: client.socketPath)
    }

    private func keep(_ reacquirer: (@Sendable () -> Void)?, _ request: Int?, _ id: String) {
        guard let reacquirer, let request else { return }
        state.withLock { $0.reacquirers[request, default: [:]][id, default: []].append(reacquirer) }
    }

    private func takeReacquirers(_ request: Int?, _ id: String) -> [@Sendable () -> Void] {
        guard let request else { return [] }
        return state.withLock { state in
            defer {
                state.reacquirers[request]?[id] = nil
                if state.reacquirers[request]?.isEmpty == true { state.reacquirers[request] = nil }
            }
            return state.reacquirers[request]?[id] ?? []
        }
    }

    static func url(_ raw: Data?) -> URL {
        let bytes = Array(raw ?? Data()) + [0]
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                URL(fileURLWithFileSystemRepresentation: $0.baseAddress!, isDirectory: false, relativeTo: nil)
            }
        }
    }
}
