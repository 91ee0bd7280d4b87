import Coordination
import Foundation
import IgnoreRules
import MetadataIndex
import RawPaths
import SyncPlanning

/// One pass over one container: read the logs, scan the disk, plan, execute; then plan
/// once more, because what was just published may have met a concurrent change.
struct SyncPass {
    let container: ContainerSync
    let ignore: IgnoreRules
    let database: SyncDatabase
    let coordinator: FileCoordinator?
    let deletionGuard: DeletionGuard
    let quietNanoseconds: Int64
    /// How long deletions wait for the burst they belong to to end (zero once the caller
    /// settled every change: `ubq sync`).
    var deletionQuiet: Duration = .zero
    let faults: FaultInjection?
    /// Writes this device's view of the container in the mirror.
    let views: ViewLinker
    /// Writes the view after the pass, on its own thread; nil: the pass writes it itself.
    var viewWriter: ViewWriter?
    var confirmDeletes: Bool
    /// Puts back what the held deletions removed (`ubq sync --restore-deletes`): the
    /// mirror's versions of those paths come back as if this device never had them.
    var restoreDeletes = false
    /// The subtrees to look at (container-relative; changed locally since the last pass),
    /// or nil for the whole container. Paths other devices changed are added to them, and
    /// many of them make the pass look at everything (`widened`).
    var scope: Set<RawPath>?
    /// Where the pass counts its actions and bytes as it goes (status requests read it).
    var progress: PassProgress?
    /// Told which items start uploading (`uploaded` false) and, at each batch committed
    /// before the pass ends, which are done (true), so the index follows a long pass (one
    /// of `marksUploadsFrom` uploads or more).
    var marksUploads: (@Sendable (_ paths: [RawPath], _ uploaded: Bool) -> Void)?
    /// Told when the pass turns out long (true: `LongWork`) and when it ends (false).
    var longRound: (@Sendable (_ running: Bool) -> Void)?
    /// How close to the scan a file's change may be for its signature to be kept.
    var racyWindow = LocalSignature.racyWindowNanoseconds
    /// How many changes the pass commits together (`ChangeBatch`).
    var batchCapacity = ChangeBatch.defaultCapacity

    func run() throws -> PassReport {
        if let holdup = container.stopped.map({ PassReport.Holdup.stopped($0.message) })
            ?? Self.documentsProblem(in: container.folder).map(PassReport.Holdup.paused)
        {
            var waiting = PassReport(problems: [holdup.reason])
            waiting.holdup = holdup
            waiting.incomplete = true  // the next pass looks at everything again
            // And so at these: kept, they would make ubqd pass again at every poll
            // (`SyncEngine.hasPathsToLookAt`) while the container is held up.
            _ = container.takeRemotelyChanged()
            return waiting
        }
        var report = PassReport()
        report.problems += container.readLogs()
        let remote = container.takeRemotelyChanged()
        // Deletions waiting for their burst to end are looked at by every pass: `ubq sync`
        // must publish them even when an earlier pass took them from the changed paths.
        let waiting = container.deletionBurst.paths.union(keptFolders(holding: scope, remote: remote))
        let roots = try scope.flatMap { try widened($0, remote: remote, waiting: waiting) }
        report.lookedAtEverything = roots == nil
        if roots == nil {
            container.keptFolders = []
            container.keptLandings = [:]
        }
        let rootKeys = roots.map { $0.compactMap { SyncPath.key($0) } }
        let executor = Executor(
            containerID: container.id, containerFolder: container.folder,
            store: ContentStore(layout: container.layout, device: container.device, absent: AbsentObjects(objects: container.layout.objects)),
            coordinator: coordinator, faults: faults, folderLift: try FolderLift(database: database), racyWindow: racyWindow)
        let copier = EarlyCopier(store: executor.store, container: container)
        var earlyCopies: [String] = []
        // Uploaded early copies were renamed into the store; the others go.
        defer { copier.removeUnused(earlyCopies) }
        var local = LocalTree()
        var unfinished: Set<String> = []
        var touched = container.viewBehind
        container.viewBehind = []
        var lastPlan: SyncPlan?
        let long = LongWork(observer: longRound)
        defer { long.end() }
        var base: [String: BaseRow] = [:]
        var viewStream: ViewStream?
        var weighed: Set<String> = []  // see `SyncPlan.weighed`
        for round in 0..<3 {
            base = try database.base(container: container.id, under: rootKeys)
            if round == 0, roots == nil { viewStream = startViewStream(base: base, report: &report) }
            local = LocalTree.scan(
                containerFolder: container.folder, ignore: ignore, base: base, roots: roots, quietNanoseconds: quietNanoseconds,
                racyWindow: racyWindow, copier: copier, reading: long.note)
            report.hashed += local.hashed
            let copies = local.earlyCopies
            earlyCopies += copies
            if round == 0 {
                EarlyWriteback.start(copies: copies.count, footprint: local.earlyCopyFootprint, anchor: container.layout.root, faults: faults)
                report.problems += local.problems + removeLeftovers(local.leftovers, lift: executor.folderLift)
                report.unreadable = local.unreadable
                container.unsynced.replace(within: roots, with: local.unsynced)
                report.deferred = local.deferred
            }
            let guarded = try guardDeletions(makePlan(local: local, base: base, roots: roots, weighed: weighed), report: &report) { restored in
                makePlan(local: local, base: base.filter { !restored.contains($0.key) }, roots: roots, weighed: weighed)
            }
            let plan = keepingReplacedContent(guarded, local: local, executor: executor, report: &report)
            let before = report
            touched.formUnion(plan.actions.lazy.flatMap(\.paths))
            lastPlan = plan
            long.note(plan.actions.count)
            unfinished = try execute(plan, local: local, executor: executor, view: viewStream, report: &report)
            // Published by the next round, or the next pass; unless their follows waited with
            // deletions (looked at again with them, once the burst ends).
            if !plan.namesWaiting.isEmpty, plan.actions.contains(where: \.isLocalRename) { container.lookAgain(at: plan.namesWaiting) }
            if let viewStream { touched.subtract(viewStream.takeWritten()) }
            if confirmDeletes {
                container.recentDeletions = RecentDeletions()  // the user said yes to those: a new count starts
            } else {
                container.recentDeletions.add(plan.deletions.count { !unfinished.contains($0.action) })
            }
            // Deletions that followed a rename are published at their new paths by the next
            // round, already weighed; or by a later pass.
            // Only those that ran: the guard may have held some back (`withoutPublishedDeletions`).
            let ran = plan.followedDeletions.isEmpty ? [] : Set(plan.actions.lazy.map(\.path))  // not on a first sync's 100,000
            let followed = plan.followedDeletions.keys.filter { ran.contains($0) && !unfinished.contains($0) }
            weighed.formUnion(followed)
            container.lookAgain(at: followed)
            // Nothing new for the others to meet, and no followed edit waiting to be published.
            if report.published == before.published && report.followed == before.followed { break }
            if report.followed == before.followed && report.applied == before.applied && metNothing(plan, unfinished: unfinished) { break }
        }
        if roots == nil { report.problems += restoreDamagedObjects(local: local, base: base, executor: executor) }
        do {
            try database.refreshSignatures(container: container.id, Self.refreshedSignatures(local: local, base: base))
        } catch {
            // It only spares the next scan some reading: the pass's work stands.
            report.problems.append("new signatures not kept, so these files are read again next time: \(error)")
        }
        var pending = lastPlan.map { Self.pending($0.actions, unfinished: unfinished) } ?? PendingActions()
        pending.publishes.formUnion(lastPlan?.namesWaiting ?? [])
        pending.applies.formUnion(report.downloadErrors.keys)  // dropped from the plan too (`keepingReplacedContent`)
        pending.planned.formUnion(report.downloadErrors.keys)
        report.indexState = indexState(local: local, pending: pending, roots: roots, report: report)
        touched.formUnion(container.conflicts.keys)  // a diary merge below may change them
        do {
            try mergeDocumentConflicts(executor: executor, report: &report)
        } catch let error as SyncError where error.code == .changedMeanwhile {
            report.skipped += 1
        }
        // The last round's base is still the base if that round and the merges changed
        // nothing (a full pass that found nothing to do): the view's repair need not
        // read 100,000 rows again.
        let unchanged = lastPlan?.actions.isEmpty != false && report.merged == 0
        // A view written as the pass went needs no check of its whole (`ViewStream`).
        let whole = roots == nil && viewStream == nil
        report.problems += viewStream?.problems ?? []
        updateView(touched: touched, whole: whole, base: unchanged && whole ? base : nil, report: &report)
        let failures = report.failures
        report.problems += failures.sorted { $0.key < $1.key }.map(\.value)
        // Kept until a pass looks at them again: a failure that recurs (a path too long
        // here) is not retried by passes over what changed elsewhere, yet still counts.
        container.failedItems.replace(within: roots, with: failures)
        return report
    }

    /// The base rows whose file the scan found as the base has it, under a signature the
    /// base does not keep (touched, or kept with none): with the new one kept, the next
    /// scan need not read the file again. A row the round's actions changed meanwhile is
    /// left alone (`SyncDatabase.refreshSignatures` checks its version). Found from the
    /// base's rows: a first sync's base, read before anything was synced, has none, where
    /// a look at each of 100,000 local entries took 0.03 s at the pass's end.
    static func refreshedSignatures(local: LocalTree, base: [String: BaseRow]) -> [BaseRow] {
        base.compactMap { path, row in
            guard let entry = local.entries[path], entry.state.kind == .file, let lasting = entry.lastingSignature,
                row.entry.state == entry.state, row.signature != lasting
            else { return nil }
            var row = row
            row.signature = lasting
            return row
        }
    }

    /// Whether another round could only plan nothing, for a round that applied and followed
    /// nothing: each version it published is its path's only head. The next round's plan
    /// differs from this one's only where this round changed its inputs: the base (now the
    /// disk's state) and the histories at those paths. A second head there, a version from
    /// elsewhere that this publish met, is what the next round resolves (the winner rule, a
    /// conflict kept); a download or a followed rename may also leave work for it. On a
    /// first sync of 100,000 files (tmpfs), the round that found nothing (a scan of the
    /// whole tree, the whole base read, a plan of every path) cost 1.3-2.2 s of the pass's
    /// 15 s of CPU.
    private func metNothing(_ plan: SyncPlan, unfinished: Set<String>) -> Bool {
        plan.actions.allSatisfy { action in
            guard case .publish(let path, _, _, _) = action, !unfinished.contains(path) else { return true }
            return container.histories[path]?.headCount == 1
        }
    }

    /// The plan without its deletions while they wait: for the burst they belong to to
    /// end (an `rm -rf` reaches several passes; the guard must see it whole), then, past the
    /// guard's share, for the user's confirmation. The rest (uploads, downloads) goes ahead.
    /// With `restoreDeletes`, held deletions are undone instead: `forgetting` plans again
    /// with the base forgetting those paths, so that the mirror's versions are downloaded.
    private func guardDeletions(
        _ plan: SyncPlan, report: inout PassReport, forgetting: (_ paths: Set<String>) -> SyncPlan
    ) throws -> SyncPlan {
        let deletions = plan.deletionPaths
        // None left (every pass looks at the waiting ones), or confirmed: no burst waits.
        guard !deletions.isEmpty, !confirmDeletes else {
            container.deletionBurst = DeletionBurst()
            return plan
        }
        // A deletion that follows a rename is planned from both paths: the next pass must
        // look at the new one too, which no change here names.
        let waiting = deletions + plan.followedDeletions.keys.sorted()
        guard container.deletionBurst.hasEnded(noting: waiting, quiet: deletionQuiet) else {
            // Looked at again by the next pass (each round of this one meets them again), and
            // so are the renames made here that may wait with them (`withoutPublishedDeletions`).
            let listed = Set(report.deferred)
            report.deferred += (waiting + plan.localRenamePaths).map { RawPath($0) }.filter { !listed.contains($0) }
            return plan.withoutPublishedDeletions()
        }
        container.deletionBurst = DeletionBurst()
        let recent = container.recentDeletions.count(within: deletionGuard.window)
        guard let held = try deletionGuard.holds(plan: plan, recent: recent, baseCount: { try database.baseCount(container: container.id) })
        else { return plan }
        guard restoreDeletes else {
            report.heldDeletions = held
            return plan.withoutPublishedDeletions()
        }
        try Self.makeFolderAgain(container.folder.readable)
        report.restoredDeletions = held
        return forgetting(Set(deletions))
    }

    /// Makes the container folder `folder` if it is gone (an `rm -rf` of the whole
    /// container): the items restored go back into it. Only it: a root that is gone too
    /// (an unmounted disk) is not made on the mount point.
    private static func makeFolderAgain(_ folder: String) throws(SyncError) {
        guard mkdir(folder, 0o755) != 0 else { return try Sys.fsyncFolder(Sys.parent(of: folder)) }
        guard errno == EEXIST else { throw .system("mkdir", folder) }
    }

    /// Deletes the staging files a daemon killed mid-download left in the container. A pass
    /// runs alone on the sync thread, which writes all of them, so none is in use now.
    private func removeLeftovers(_ leftovers: [RawPath], lift: FolderLift?) -> [String] {
        let remove = { () -> [String] in
            leftovers.compactMap { relative -> String? in
                let path = container.folder.appending(relative)
                guard path.withCString({ unlink($0) }) != 0 else { return nil }
                let reason = errno
                return reason == ENOENT ? nil : "cannot remove the unfinished download \(path.readable): \(String(cString: strerror(reason)))"
            }
        }
        guard let lift, lift.applies, !leftovers.isEmpty else { return remove() }
        // A download cut short in a read-only folder left its staging file there.
        let folders = leftovers.map { container.folder.appending($0).removingLastComponent().readable }
        do {
            return try lift.writing(in: folders, remove)
        } catch {
            return ["cannot make the folders of unfinished downloads writable for a moment: \(error)"] + remove()
        }
    }

    /// What a scoped pass looks at: the paths that changed here, those other devices
    /// changed, and deletions waiting for their burst to end. Nil (the whole container)
    /// when they are many and the base is not much larger. Another device's first sync of
    /// 100,000 files arrives as 100,000 roots: looked up one by one (in the base, on disk,
    /// in the index's scope), they took 35.8-37.1 s of a device's pass receiving them,
    /// against 31.6-32.2 s as a full pass (scratch remote_burst.py, tmpfs). Nil too when
    /// other devices changed something in a folder gone from this disk that no change here
    /// names (`foldersGone`).
    func widened(_ scope: Set<RawPath>, remote: Set<String> = [], waiting: Set<String> = []) throws -> [RawPath]? {
        let roots = scope.union(remote.lazy.map { RawPath($0) }).union(waiting.lazy.map { RawPath($0) })
        if roots.count > Self.largestScope, try database.baseHasFewerRows(container: container.id, than: roots.count * Self.lookupsPerRoot) {
            return nil
        }
        // Another device changed something in a folder this device had, which is gone from
        // the disk though the pass was not told so: this device renamed or deleted it a
        // moment ago, and the watcher has not said so yet. Planned without the rename, the
        // change would bring the folder back here for it; a pass over everything meets the
        // rename, and puts the change in the renamed folder (`Landing`).
        let gone = Self.foldersGone(holding: remote, unless: scope, in: container.folder)
        if !gone.isEmpty, try !database.heldFolders(container: container.id, among: gone).isEmpty { return nil }
        // Or in a folder whose current version is a deletion: a new item published while
        // another device's rename of its folder was (`Strays`). A pass over everything sees
        // where the rename took the folder, and puts the item there.
        if gone.contains(where: { container.histories[$0]?.winner.map { $0.state == nil } ?? false }) { return nil }
        return roots.sorted()
    }

    /// The folders that hold `remote` paths (another device's changes), are named by
    /// neither those changes nor `scope` (the paths the pass was told changed here, and
    /// what is below them), and are gone from the disk. A folder the other device changed
    /// too (made, deleted) tells nothing: the change is that device's folder's.
    ///
    /// One look at the disk for each folder the changes are in, of those neither side named.
    static func foldersGone(holding remote: Set<String>, unless scope: Set<RawPath>, in containerFolder: RawPath) -> [String] {
        guard !remote.isEmpty else { return [] }
        let named = Subtrees(scope.compactMap { SyncPath.key($0) })
        var looked: Set<Substring> = []
        var gone: [String] = []
        for path in remote {
            guard let folder = path.folderBeforeLastSlash, looked.insert(folder).inserted else { continue }
            let name = String(folder)
            guard !remote.contains(name), !named.contains(name) else { continue }
            if isGone(LocalNames.relative(of: name, local: nil, in: containerFolder), in: containerFolder) { gone.append(name) }
        }
        return gone
    }

    /// Why the container cannot be synced now: its `Documents` is there but is not a folder
    /// (a link to where the user moved it, to make room on a disk; a file). Sync follows no
    /// link, so it would publish the folder's replacement, and every other device would
    /// lose the files in it. The container waits, saying so, until Documents is a folder
    /// again. (A Documents that is not there at all is a deletion, which the deletion guard
    /// weighs.)
    static func documentsProblem(in containerFolder: RawPath) -> String? {
        let documents = containerFolder.appending("Documents")
        var info = stat()
        guard documents.withCString({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
        let what = info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
        return "\(documents.readable) is \(what): sync follows no links and waits until it is a folder again; "
            + "to keep the files on another disk, link the whole Ubiquity root there instead"
    }

    /// Up to this many roots a pass stays scoped whatever the base's size.
    static let largestScope = 2_000
    /// About how many files of a full pass cost what one root of a scoped pass costs: a
    /// root takes a few lookups (base, disk, index), a full pass's file about one
    /// (a judgment from the costs above, not tuned).
    static let lookupsPerRoot = 4

    private func makePlan(local: LocalTree, base: [String: BaseRow], roots: [RawPath]?, weighed: Set<String> = []) -> SyncPlan {
        var trees = SyncTrees(
            local: local.entries.mapValues(\.state), base: base.mapValues(\.entry), histories: container.histories,
            logsReadInFull: container.logsReadInFull)
        trees.device = container.device
        var paths = Set(trees.local.keys)
        if let roots {
            let keys = roots.compactMap { SyncPath.key($0) }
            paths.formUnion(keys)
            // The base holds what this device had below the roots, and the roots include
            // every path another device changed: no need to search all the histories.
            paths.formUnion(trees.base.keys.filter(Subtrees(keys).contains))
            // But an action that failed (a download too deep for Linux) may be in neither:
            // the pass answers for the failures kept below its roots, so it tries them again.
            paths.formUnion(container.failedItems.paths(within: roots).compactMap { SyncPath.key($0) })
        } else {
            paths.formUnion(trees.base.keys)
            paths.formUnion(trees.histories.keys)
        }
        let waiting = Self.waitingOnUnknown(paths, in: local, histories: trees.histories, base: base)
        paths.subtract(waiting.all)
        // Nothing may report these again once the file settles (another device's folder
        // that replaced a file being edited here arrived without its files until the next
        // full pass): the next pass looks at them.
        container.lookAgain(at: waiting.onWrites)
        var plan = SyncPlan(trees, paths: paths)
        // A deletion or a rename follows a rename only if the old path is gone from the
        // disk, not merely from the scan (`SyncTrees.stillOnDisk`).
        let departed = plan.followedDeletions.values + plan.localRenames.map(\.from)
        let present = Set(departed.filter { !Self.isGone(LocalNames.relative(of: $0, local: local, in: container.folder), in: container.folder) })
        if !present.isEmpty {
            trees.stillOnDisk = present
            plan = SyncPlan(trees, paths: paths)
        }
        plan.weighed = weighed
        return plan
    }

    /// Whether nothing is at `relative` below `folder`: not when it cannot be told.
    static func isGone(_ relative: RawPath, in folder: RawPath) -> Bool {
        var info = stat()
        let status = folder.appending(relative).withCString { lstat($0, &info) }
        return status != 0 && (errno == ENOENT || errno == ENOTDIR)
    }

    /// Runs the plan's actions in order, committing them in batches; returns the paths
    /// whose action did not complete.
    private func execute(
        _ plan: SyncPlan, local: LocalTree, executor: Executor, view: ViewStream?, report: inout PassReport
    ) throws -> Set<String> {
        let batch = try ChangeBatch(
            store: executor.store, database: database, container: container, capacity: batchCapacity,
            earlyCopyFootprint: local.earlyCopyFootprint, view: view, faults: faults)
        defer { batch.abandon() }  // a pass that stops early
        if let lift = executor.folderLift, lift.applies { try lift.lift(foldersWritten(by: plan.actions, local: local, in: executor.containerFolder)) }
        defer { executor.folderLift?.end() }  // after the batch's last commit (defers run last first)
        keepBeside(plan.keptBeside, executor: executor, report: &report)
        var unfinished = Set(plan.actions.map(\.path))
        var prepared = PreparedRun()
        let folderMoves = Dictionary(plan.folderMoves.map { ($0.to, $0) }, uniquingKeysWith: { first, _ in first })
        defer { prepared.discard(executor) }
        progress?.planned(plan.actions)
        let publishing = plan.actions.compactMap { if case .publish(let path, .some, _, _) = $0 { path } else { nil } }
        let marking = publishing.count >= Self.marksUploadsFrom
        if marking { markUploads(publishing, local: local, uploaded: false) }
        for (position, action) in plan.actions.enumerated() {
            defer { progress?.finished(action) }
            do {
                try faults?.checkpoint("between actions")
                if !prepared.holds(action.path), let move = folderMoves[action.path] {
                    try prepared.prepare(move, local: local, executor: executor)
                }
                if !prepared.holds(action.path) {
                    try prepared.prepare(plan.actions[position...], pass: self, local: local, executor: executor)
                }
                if try perform(action, local: local, executor: executor, batch: batch, prepared: &prepared, report: &report) {
                    batch.finished(action.path)
                    report.noteSuccess(at: action.path)
                }
                if batch.isFull {
                    defer { noteDurable(batch, unfinished: &unfinished, marking: marking ? local : nil) }
                    try batch.flush()
                }
            } catch let crash as FaultInjection.SimulatedCrash {
                throw crash
            } catch let error as SyncError where error.code == .changedMeanwhile {
                // What changed under the action is reported again, but not always its path:
                // a folder that was to be replaced, and gained a file meanwhile, is not.
                report.skipped += 1
                container.lookAgain(at: action.paths)
            } catch let error as SyncError where error.isPathTooLong {
                // It fails the same way every pass: the next need not look at everything for it.
                report.noteFailure(at: action.path, download: action.changesTheDisk, "\(error); \(SyncError.pathTooLongHint(for: action.path))")
            } catch let error as SyncError where error.isOutOfSpace {
                report.pause(by: error, at: action.path)
                progress?.abandoned(plan.actions.dropFirst(position + 1))
                return unfinished
            } catch {
                report.noteFailure(at: action.path, download: action.changesTheDisk, "\(error)")
                report.incomplete = true
            }
        }
        try batch.finish()
        unfinished.subtract(batch.takeDurable())
        return unfinished
    }

    /// From how many uploads a pass marks them as it goes. A smaller pass ends within a
    /// fraction of a second, and its final state says the same. Marks in every pass made a
    /// 1% re-sync of 100,000 files (passes of about 250) take 0.91-1.2 s instead of
    /// 0.77-0.86 s in runs one after the other (scratch inc.sh, a noisy machine): the
    /// index's writer is shared with the indexer that feeds the passes.
    static let marksUploadsFrom = 2000

    /// From how many files read or actions carried out a pass is long enough that work
    /// which can wait should (`LongWork`).
    static let longPassFrom = 2000

    /// Tells `marksUploads` about `paths`, named as the index names them (the bytes on disk).
    /// The batches `ChangeBatch.finish()` completes are not told: the pass's final state
    /// follows at once.
    private func markUploads(_ paths: [String], local: LocalTree, uploaded: Bool) {
        guard let marksUploads, !paths.isEmpty else { return }
        marksUploads(paths.map { local.entries[$0]?.rawPath ?? RawPath($0) }, uploaded)
    }

    /// Takes the paths whose changes `batch` made durable off `unfinished`, and marks them
    /// uploaded in the index when the pass marks its uploads (`marking`: its local tree).
    private func noteDurable(_ batch: ChangeBatch, unfinished: inout Set<String>, marking local: LocalTree?) {
        let durable = batch.takeDurable()
        unfinished.subtract(durable)
        if let local { markUploads(durable, local: local, uploaded: true) }
    }

    /// Performs one action; false when its precondition no longer held. Its disk work may
    /// have been done already, with others (`prepared`).
    private func perform(
        _ action: SyncAction, local: LocalTree, executor: Executor, batch: ChangeBatch,
        prepared: inout PreparedRun, report: inout PassReport
    ) throws -> Bool {
        switch action {
        case .publish(let path, let state, let parents, let movedFrom):
            let entry = local.entries[path]
            guard try executor.publish(
                path, state: state, parents: parents, movedFrom: movedFrom, local: entry, batch: batch,
                prestaged: prepared.takeStaged(path)) != nil
            else { return false }
            report.published += 1
        case .apply(let version, _):
            let origin = version.movedFrom.flatMap { movableOrigin($0, local: local) }
            let installed = prepared.takeInstalled(version.path)
            let relative = LocalNames.relative(of: version.path, local: local, in: executor.containerFolder)
            let outcome = try executor.apply(
                version, at: relative, expected: local.entries[version.path], movedFromLocal: origin, batch: batch, preinstalled: installed)
            guard outcome == .done else {
                if case .kept(let why) = outcome {
                    report.problems.append(why)
                    container.keptFolders.insert(version.path)
                } else {
                    report.skipped += 1
                    container.lookAgain(at: action.paths)  // as for `changedMeanwhile`, in `execute`
                }
                return false
            }
            container.keptFolders.remove(version.path)
            report.applied += 1
        case .adopt(let path, let version, let state):
            executor.adopt(path, version: version, state: state, local: local.entries[path], batch: batch)
            report.adopted += 1
        case .follow(let followed):
            let (source, destination) = (local.entries[followed.from], local.entries[followed.move.path])
            let target = LocalNames.relative(of: followed.move.path, local: local, in: executor.containerFolder)
            // A deletion or a rename follows only while nothing is back at the old path (the plan looked once).
            if followed.edit.carriesNoContent, !Self.isGone(LocalNames.relative(of: followed.from, local: local, in: executor.containerFolder), in: executor.containerFolder) {
                report.skipped += 1
                container.lookAgain(at: action.paths)
                return false
            }
            guard try executor.follow(followed, source: source, to: target, destination: destination, batch: batch) == .done else {
                report.skipped += 1
                container.lookAgain(at: action.paths)
                return false
            }
            // Its departure from the new path is published by the next round, or the next pass.
            if followed.edit == .localRename { container.lookAgain(at: [followed.move.path]) }
            report.followed += 1
        case .relocate(let relocation):
            let target = LocalNames.relative(of: relocation.to, local: local, in: executor.containerFolder)
            guard try executor.relocate(relocation, entries: local.entries, to: target) == .done else {
                report.skipped += 1
                container.lookAgain(at: action.paths)
                return false
            }
            // Published where it is now by the next round, or the next pass if this one's
            // scope misses it; so are the departures of the renames it carries.
            container.lookAgain(at: [relocation.to] + relocation.departures)
            report.followed += 1
        case .land(let landing):
            let target = LocalNames.relative(of: landing.to, local: local, in: executor.containerFolder)
            let source = landing.source.flatMap { local.entries[$0.path] }
            let outcome = try executor.land(landing, source: source, to: target, batch: batch)
            guard outcome == .done else {
                if case .kept(let why) = outcome {
                    // Looked at again when something in it changes, as a kept folder is:
                    // looked at at every poll, it would make ubqd pass again and again.
                    report.problems.append(why)
                    container.keptLandings[landing.to] = landing.version.path
                } else {
                    report.skipped += 1
                    container.lookAgain(at: action.paths)
                }
                return false
            }
            container.keptLandings[landing.to] = nil
            report.followed += 1
        }
        return true
    }
}

extension SyncPass {
    /// The kept folders (`ContainerSync.keptFolders`, and `keptLandings` with where the
    /// deletion is) that hold a path of a scoped pass's `scope` or one another device
    /// changed. Nothing is looked at while none is kept (a burst from another device brings
    /// 100,000 changed paths).
    func keptFolders(holding scope: Set<RawPath>?, remote: Set<String>) -> Set<String> {
        guard !container.keptFolders.isEmpty || !container.keptLandings.isEmpty, let scope else { return [] }
        var found: Set<String> = []
        for path in scope.lazy.compactMap({ SyncPath.key($0) }) + remote {
            var folder = Substring(path)
            while let parent = folder.folderBeforeLastSlash {
                let name = String(parent)
                if container.keptFolders.contains(name) { found.insert(name) }
                folder = parent
            }
            // A kept landing at or below the path (its folder's mode changed, or a folder it
            // is in was renamed), or above it, with where the deletion is: planned without
            // that, the folder was published as new.
            for (kept, deletedAt) in container.keptLandings where kept == path || kept.below(path) != nil || path.below(kept) != nil {
                found.formUnion([kept, deletedAt])
            }
        }
        return found
    }

    /// The local item a renamed version may be moved from instead of fetched: only one at
    /// a path the mirror now calls deleted. Where another head won there (an edit beats the
    /// deletion the rename made), the item stays, and this pass may rewrite it.
    func movableOrigin(_ path: String, local: LocalTree) -> LocalEntry? {
        guard let entry = local.entries[path], let winner = container.histories[path]?.winner, winner.state == nil else { return nil }
        return entry
    }
}
