import APIModel
import Foundation
import PresenterPlanning

/// Coordinated accesses: asked before, told after.
extension PresenterHub {
    /// The presenters still owing an answer to one request, and who waits for them.
    struct Ask {
        var waiting: Set<PresenterID>
        var answered = 0
        var expired = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    /// An access between its begin and its end.
    struct Access {
        let pid: Int32
        /// The presenter the access is made for, left out of it.
        let madeFor: PresenterID?
        let items: [AccessedItem]
        let asked: [PresenterPlan]
        let existedBefore: Set<[UInt8]>
    }

    /// `POST /v1/coordination/begin`: asks the affected presenters, except the one of the
    /// process `pid` that the access is `madeFor`, and returns once all answered or at
    /// `deadline`. Nil access when nobody needs to hear more.
    ///
    /// A write that only the presenter it is made for is concerned with is recorded too,
    /// though that presenter is neither asked nor told: its end remembers how it left the
    /// items, so that the watcher's sight of it is not told to it as another program's change
    /// (an open `Document` heard of each of its own saves so).
    func begin(_ items: [AccessedItem], pid: Int32, madeFor presenter: String?, deadline: Duration) async -> AccessBeginResponse {
        let presences = self.presences
        let madeFor = presenter.flatMap { id in presences.first { $0.pid == pid && $0.id.presenter == id }?.id }
        let asked = AccessPlanner.before(items, presenters: presences, leavingOut: madeFor)
        let writes = items.filter { $0.access == .writing }
        let concerned = presences.contains { presence in
            writes.contains { PathRelation.of(presented: presence.path, accessed: $0.path) != nil }
        }
        guard !asked.isEmpty || concerned else { return AccessBeginResponse(access: nil) }
        let id = nextID()
        let existed = Set(items.map(\.path).filter(FileStamp.exists))
        accesses[id] = Access(pid: pid, madeFor: madeFor, items: items, asked: asked, existedBefore: existed)
        guard !asked.isEmpty else { return AccessBeginResponse(access: id) }
        asks[id] = Ask(waiting: Set(asked.map(\.presence.id)))
        send(asked, request: id, asking: true)
        await waitForAnswers(id, deadline: deadline)
        let ask = asks.removeValue(forKey: id)
        let skipped = (ask?.waiting ?? []).sorted().map(info)
        for presenter in skipped {
            logger.warning("presenter of \(presenter.path) in pid \(presenter.pid) (\(presenter.program)) did not answer within \(deadline); access by pid \(pid) goes ahead")
        }
        return AccessBeginResponse(access: id, asked: asked.count, answered: ask?.answered ?? 0, skipped: skipped)
    }

    private func waitForAnswers(_ id: Int, deadline: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.answers(id) }
            group.addTask {
                try? await Task.sleep(for: deadline)
                await self.expire(id)
            }
            await group.next()
            expire(id)  // lets whichever child still waits finish
            group.cancelAll()
        }
    }

    private func answers(_ id: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            guard let ask = asks[id], !ask.expired, !ask.waiting.isEmpty else { return continuation.resume() }
            asks[id]?.continuation = continuation
        }
    }

    private func expire(_ id: Int) {
        asks[id]?.expired = true
        asks[id]?.continuation?.resume()
        asks[id]?.continuation = nil
    }

    /// `POST /v1/presenters/reply`. False when the request is no longer waited for (late).
    @discardableResult
    func reply(_ reply: PresenterReply) -> Bool {
        let id = PresenterID(session: reply.session, presenter: reply.presenter)
        if let error = reply.error {
            logger.notice("presenter \(id) answered request \(reply.request) with an error: \(error)")
        }
        return answered(id, in: reply.request)
    }

    /// Notes that `presenter` answered `request` (nil: every request, as when it is gone).
    @discardableResult
    func answered(_ presenter: PresenterID, in request: Int?) -> Bool {
        var found = false
        for key in request.map({ [$0] }) ?? Array(asks.keys) {
            guard asks[key]?.waiting.remove(presenter) != nil else { continue }
            found = true
            asks[key]?.answered += request == nil ? 0 : 1
            if asks[key]?.waiting.isEmpty == true { expire(key) }
        }
        return found
    }

    /// `POST /v1/coordination/end`: tells the presenters what the access did.
    func end(_ id: Int, accessed: Bool, moves: [AccessMove]) throws(APIError) -> Int {
        guard let access = accesses.removeValue(forKey: id) else {
            throw APIError(error: "no-access", message: "no coordinated access \(id) is under way (ended already, or ubqd restarted)")
        }
        let presences = self.presences
        let related = presences.map(\.path) + access.asked.map(\.presence.path)
        let outcome = AccessOutcome(
            accessed: accessed, moves: moves.map { (Array($0.from), Array($0.to)) }, existedBefore: access.existedBefore,
            existsAfter: Set((access.items.map(\.path) + related).filter(FileStamp.exists)))
        let told = AccessPlanner.after(
            access.items, asked: access.asked, presenters: presences, leavingOut: access.madeFor, outcome: outcome)
        send(told, request: id, asking: false)
        if accessed {
            let written = access.items.filter { $0.access == .writing }.map(\.path)
            remember(written)
            refreshIdentities(of: Set(written + moves.map { Array($0.to) }))
        }
        return told.count
    }

    /// Records how the items look now, as their presenters were told of them: the watcher's
    /// sight of that state (a coordinated write, or a later write already told) is an echo.
    func remember(_ paths: some Sequence<[UInt8]>) {
        let now = ContinuousClock.now
        for path in paths {
            if let stamp = FileStamp(path) { announced[path] = (stamp, now) } else { announced[path] = nil }
        }
    }

    /// Ends the accesses of processes that died before they said so (their claims died
    /// with them), so their presenters get their items back. Forgets old announcements.
    func sweep() {
        for (id, access) in accesses where kill(access.pid, 0) != 0 && errno == ESRCH {
            logger.notice("pid \(access.pid) died during a coordinated access; telling its presenters it ended")
            _ = try? end(id, accessed: true, moves: [])
        }
        let cutoff = ContinuousClock.now - .seconds(60)
        announced = announced.filter { $0.value.at > cutoff }
        flushVanished()
    }
}

/// What identifies one version of an item on disk: inode, size, times.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int
    var modifiedNanoseconds: Int
    var changed: Int
    var changedNanoseconds: Int

    init?(_ path: [UInt8]) {
        var info = stat()
        guard (path + [0]).withUnsafeBufferPointer({ buffer in
            buffer.withMemoryRebound(to: CChar.self) { lstat($0.baseAddress!, &info) }
        }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        changed = info.st_ctim.tv_sec
        changedNanoseconds = info.st_ctim.tv_nsec
    }

    static func exists(_ path: [UInt8]) -> Bool { FileStamp(path) != nil }

    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    var identity: Identity { Identity(device: device, inode: inode) }
}
