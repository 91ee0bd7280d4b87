import Foundation

/// One item of a coordinated access as the caller named it: by a URL, or by the bytes of
/// its path (`rawPath`; `url` is then only what a URL can hold of them).
struct RequestedItem {
    var url: URL
    var rawPath: [UInt8]?
    var access: ItemAccess

    init(url: URL, access: ItemAccess) {
        self.url = url
        self.access = access
    }

    init(rawPath: [UInt8], access: ItemAccess) {
        url = ItemPath(canonicalBytes: rawPath).url
        self.rawPath = rawPath
        self.access = access
    }
}

/// What a session asks of its caller after an attempt.
enum Poll {
    /// Every lock is held; run the accessor with these URLs, then release the claim.
    case ready(Claim, [URL])
    /// Something is held by another claim: sleep this long, then poll again.
    case wait(nanoseconds: Int)
}

/// One coordinated access from its first attempt to its accessor: polls `F_OFD_SETLK`
/// with an exponential, jittered backoff (50 µs doubling to 5 ms), so a wait costs no CPU
/// to speak of, notices a released or killed holder within 5 ms, and can be cancelled or
/// timed out between attempts without signals or helper threads. If a coordinated move
/// of an item was recorded while this session waited, it claims the new path instead; so it
/// does if a symlinked folder on an item's way was pointed elsewhere while it waited.
final class Session {
    static let maximumMoveHops = 8
    static let firstDelay = 50_000
    static let longestDelay = 5_000_000

    private let coordinator: FileCoordinator
    private let cancellationEpoch: UInt64
    private let startedWallClock: Int64
    private let timeout: Duration?
    private let deadline: ContinuousClock.Instant?
    private var items: [(path: ItemPath, access: ItemAccess)]
    private var urls: [URL]
    /// The paths to use, as bytes: what `urls` holds, where a URL cannot hold every byte.
    private(set) var paths: [[UInt8]]
    /// What each item's path is resolved from: the caller's path, or where a move took it.
    private var sources: [[UInt8]]
    private var claim: Claim
    private var delay = Session.firstDelay
    private var hops = 0
    private var hasWaited = false

    init(coordinator: FileCoordinator, items requested: [RequestedItem], timeout: Duration?) throws(CoordinationError) {
        self.coordinator = coordinator
        cancellationEpoch = coordinator.cancellationEpoch
        startedWallClock = Sys.clockNanoseconds(CLOCK_REALTIME)
        self.timeout = timeout
        deadline = timeout.map { ContinuousClock.now + $0 }
        items = []
        urls = []
        paths = []
        sources = []
        var folders = ItemPath.ResolvedFolders()
        for item in requested {
            let source: [UInt8]
            if let raw = item.rawPath { source = raw } else { source = try ItemPath.rawBytes(of: item.url) }
            let path = try ItemPath(raw: source, resolvingFinalLink: item.access.resolvesFinalLink, folders: &folders)
            items.append((path, item.access))
            sources.append(source)
            urls.append(item.access.resolvesFinalLink ? path.url : item.url)
            paths.append(item.access.resolvesFinalLink ? path.bytes : source)
        }
        claim = try coordinator.makeClaim(LockPlan(items: items))
    }

    private var displayPath: String { items.map(\.path.description).joined(separator: " and ") }

    /// The access as a presenter relay is told of it.
    var announcement: AnnouncedAccess {
        AnnouncedAccess(items: items.map { path, access in
            switch access {
            case .reading(let options): AnnouncedAccess.Item(path: path.bytes, reading: options, writing: nil)
            case .writing(let options): AnnouncedAccess.Item(path: path.bytes, reading: nil, writing: options)
            }
        })
    }

    /// Releases the claim after its accessor ran; with `reporting`, first reads the moves
    /// that `.forMoving` writers recorded in their items' lock files (held until now).
    func finish(_ claim: Claim, reporting: Bool) -> AnnouncedAccess.Outcome {
        defer { claim.release() }
        guard reporting else { return AnnouncedAccess.Outcome(accessed: true, moves: []) }
        var moves: [AnnouncedAccess.Move] = []
        for (path, access) in items {
            guard case .writing(let options) = access, options.contains(.forMoving),
                let file = claim.heldFile(named: LockName(path: path)),
                let record = try? file.readMove(), record.from == path.bytes, record.nanoseconds >= startedWallClock
            else { continue }
            moves.append(AnnouncedAccess.Move(from: record.from, to: record.to))
        }
        return AnnouncedAccess.Outcome(accessed: true, moves: moves)
    }

    private var verb: String { items.map(\.access.verb).joined(separator: " and ") }

    /// One attempt. Whatever it throws (`.cancelled`, `.timedOut`, a failed system call),
    /// it releases every lock it took first.
    func poll(taskCancelled: Bool = false) throws(CoordinationError) -> Poll {
        do {
            return try attempt(taskCancelled: taskCancelled)
        } catch {
            claim.release()
            throw error
        }
    }

    private func attempt(taskCancelled: Bool) throws(CoordinationError) -> Poll {
        if taskCancelled || coordinator.cancellationEpoch != cancellationEpoch {
            throw .cancelled(path: displayPath)
        }
        guard try claim.advance() else { return try waitOrTimeOut() }
        if hops < Session.maximumMoveHops, try aimsElsewhere() {
            hops += 1
            delay = Session.firstDelay
            return .wait(nanoseconds: 0)
        }
        return .ready(claim, urls)
    }

    private func waitOrTimeOut() throws(CoordinationError) -> Poll {
        if !hasWaited {
            hasWaited = true
            coordinator.noteBlockedCall()
        }
        let now = ContinuousClock.now
        if let deadline, let timeout, now >= deadline {
            let holders = claim.blockingHolders()
            throw .timedOut(path: displayPath, access: verb, after: timeout, holders: holders)
        }
        var next = Int(Double(delay) * Double.random(in: 0.75...1.25))
        delay = min(delay * 2, Session.longestDelay)
        if let deadline {
            // Compared as Durations: a deadline years away (a timeout of `.seconds(1e10)`) in
            // nanoseconds overflowed Int, and trapped at the first wait.
            let remaining = deadline - now
            if remaining < .nanoseconds(next) {
                let parts = remaining.components
                next = max(Int(parts.seconds) * 1_000_000_000 + Int(parts.attoseconds / 1_000_000_000), 0)
            }
        }
        return .wait(nanoseconds: next)
    }

    /// If an item is gone and a coordinated move of it, or of a folder above it, was recorded
    /// after this session started, releases the claim and aims at the new path.
    private func followMoves() throws(CoordinationError) -> Bool {
        // Only the lock files this claim holds can carry a move to follow: when they are
        // fewer than the items, a look at each for a move recorded since the session
        // started costs fewer system calls than an lstat per item, and without one no
        // item is looked up. (`coordination-bench`: a 64-file read claim took 10.5 µs a
        // file with the lstats, 8.4 µs without; a one-file claim, which holds a lock file
        // per folder on the way, is quicker with its one lstat.)
        if claim.heldCount < items.count, try !claim.holdsMove(recordedSince: startedWallClock, path: displayPath) {
            return false
        }
        var moved = false
        for index in items.indices where !items[index].path.exists {
            guard let target = try movedTarget(of: items[index].path) else { continue }
            items[index].path = target
            urls[index] = target.url
            paths[index] = target.bytes
            sources[index] = target.bytes
            moved = true
        }
        if moved {
            claim.release()
            claim = try coordinator.makeClaim(LockPlan(items: items))
        }
        return moved
    }

    /// Whether the claim now aims at other paths than the ones it held: an item moved, or a
    /// folder link on its way pointed elsewhere.
    private func aimsElsewhere() throws(CoordinationError) -> Bool {
        if try followMoves() { return true }
        return hasWaited ? try followRetargetedLinks() : false
    }

    /// After a wait: whether a symlinked folder on an item's way points elsewhere now, so
    /// that the locks held guard the old target while the accessor would reach the new
    /// one. If so, releases the claim and aims at where each item resolves now. (Without a
    /// wait the two resolutions are microseconds apart: not worth a second `realpath`.)
    private func followRetargetedLinks() throws(CoordinationError) -> Bool {
        var folders = ItemPath.ResolvedFolders()
        var moved = false
        for index in items.indices {
            let resolvesFinalLink = items[index].access.resolvesFinalLink
            let now = try ItemPath(raw: sources[index], resolvingFinalLink: resolvesFinalLink, folders: &folders)
            guard now != items[index].path else { continue }
            items[index].path = now
            if resolvesFinalLink {
                urls[index] = now.url
                paths[index] = now.bytes
            }
            moved = true
        }
        if moved {
            claim.release()
            claim = try coordinator.makeClaim(LockPlan(items: items))
        }
        return moved
    }

    /// The new path of `path` after the latest recorded move of it or of its nearest folder
    /// that moved (their lock files are held now, so the records are stable).
    private func movedTarget(of path: ItemPath) throws(CoordinationError) -> ItemPath? {
        for origin in path.selfAndAncestors {
            guard let file = claim.heldFile(named: LockName(path: origin)) else { continue }
            let record: MoveRecord?
            do { record = try file.readMove() } catch {
                throw .syscall("pread", error, path: path.description, detail: "lock file \(file.name)")
            }
            guard let record, record.from == origin.bytes, record.nanoseconds >= startedWallClock else { continue }
            let below = origin.bytes == [UInt8(ascii: "/")] ? path.bytes : Array(path.bytes[origin.bytes.count...])
            return try ItemPath(raw: record.to + below, resolvingFinalLink: false)
        }
        return nil
    }
}
