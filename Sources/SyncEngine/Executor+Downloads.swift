import Glibc
import RawPaths
import SyncPlanning

/// One file to fetch from the store and put in place of what the scan saw: what
/// `Executor.install(_:)` installs with others under one claim.
struct Download {
    let version: VersionRecord
    let expected: LocalEntry?
    let absolute: String
    let state: EntryState

    /// Nil unless `version` is a file's content that a run can install: the run fsyncs its
    /// copies by path, opening each again for reading, which a mode without the owner's
    /// read bit (0o200, 0o000) refuses a daemon not run as root. Such a file, like anything
    /// else a run does not take, is installed alone (`Executor.apply`), fsynced through the
    /// descriptor it was written with.
    /// `relative`: where the file goes below `containerFolder` (`LocalNames`).
    init?(_ version: VersionRecord, at relative: RawPath, expected: LocalEntry?, in containerFolder: RawPath) {
        guard let state = version.state, state.kind == .file, state.sha256 != nil, state.mode & UInt32(S_IRUSR) != 0 else { return nil }
        self.version = version
        self.expected = expected
        self.state = state
        absolute = containerFolder.appending(relative).readable
    }
}

extension Executor {
    /// How many files `install(_:)` puts in place under one claim, and how many bytes at
    /// most (the first file of a run is taken whatever its size): an app saving one of
    /// them waits for all to be fetched, tens of milliseconds from a local disk.
    static let downloadsPerClaim = 64
    static let downloadBytesPerClaim: Int64 = 8 << 20

    /// Installs several downloads under one coordinated write claim on all of them. A
    /// first download of 100,000 files took a claim and two fsyncs (the file, its folder)
    /// per file; here the copies are fetched beside their targets, synced together, put in
    /// place one by one if each target is still what the scan saw, and their folders
    /// synced together. Receiving 110,000 files on this machine's disk took 107.5 s, then
    /// 71.0 s; in a second pair, on a busier machine, 175.0 s, then 90.4 s (scratch
    /// remote_burst.py, runs interleaved). On tmpfs the pass's CPU went from 31.7-32.3 s
    /// to 24.5-25.3 s.
    ///
    /// Returns each download's outcome by path. Fetching stops at the first failure, whose
    /// outcome is kept for its `apply` to throw; the downloads after it get no outcome, and
    /// the first of them starts a new run when its turn comes. No outcome at all means the
    /// claim could not be taken (`PreparedRun`). Only a simulated crash is thrown, at
    /// once, as a crash would stop everything.
    func install(_ downloads: [Download]) throws -> [String: Result<Installed, any Error>] {
        var outcomes: [String: Result<Installed, any Error>] = [:]
        do {
            try coordinator.write(downloads.map(\.absolute)) {
                let durability = BatchDurability(anchor: containerFolder.readable, sizes: downloads.map(\.state.size), faults: faults)
                let (fetched, madeIn) = fetch(downloads, durability: durability, outcomes: &outcomes)
                if !fetched.isEmpty { try faults?.checkpoint(Self.runFetchedCheckpoint) }
                let placed = try place(fetched, outcomes: &outcomes)
                syncFolders(of: placed, and: madeIn, durability: durability, outcomes: &outcomes)
            }
        } catch let crash as FaultInjection.SimulatedCrash {
            throw crash
        } catch {
            // The claim failed, so nothing was written and no outcome is kept: the body
            // throws nothing else (its steps keep their failures as outcomes).
        }
        return outcomes
    }

    /// The checkpoint between fetching a run's files beside their targets (synced) and
    /// putting the first of them in place.
    static let runFetchedCheckpoint = "install: a run's new files beside their targets, none in place"

    /// A download fetched beside its target, not yet in place.
    private struct Fetched {
        let download: Download
        let staging: String
    }

    /// Fetches each download whose target is still what the scan saw into a staging file
    /// beside it, then syncs them all; stops at the first failure. Also returns the folders
    /// that gained an entry as the targets' folders were made.
    private func fetch(
        _ downloads: [Download], durability: BatchDurability, outcomes: inout [String: Result<Installed, any Error>]
    ) -> ([Fetched], madeIn: Set<String>) {
        var fetched: [Fetched] = []
        var foldersMade: Set<String> = []
        var madeIn: Set<String> = []
        for download in downloads {
            let path = download.version.path
            // Checked here so that a changed file costs no download; `place` checks again.
            guard Self.unchanged(download.absolute, since: download.expected) else {
                outcomes[path] = .success(Installed(outcome: .skipped("\(download.absolute) changed since it was read")))
                continue
            }
            let staging = DurableFile.stagingPath(beside: download.absolute)
            do {
                if foldersMade.insert(Sys.parent(of: download.absolute)).inserted { madeIn.formUnion(try makeParentFolders(of: download.absolute)) }
                try store.fetch(download.state.sha256 ?? "", size: download.state.size, to: staging, mode: download.state.localMode, modified: download.state.modified, sync: false)
                fetched.append(Fetched(download: download, staging: staging))
            } catch {
                outcomes[path] = .failure(error)
                break
            }
        }
        do {
            try durability.syncFiles(fetched.map(\.staging))
        } catch {
            for item in fetched {
                unlink(item.staging)
                outcomes[item.download.version.path] = .failure(error)
            }
            return ([], madeIn)
        }
        return (fetched, madeIn)
    }

    /// Puts each fetched copy in place if its target is still what the scan saw; returns
    /// those that went in.
    private func place(_ fetched: [Fetched], outcomes: inout [String: Result<Installed, any Error>]) throws -> [Download] {
        var placed: [Download] = []
        for item in fetched {
            let download = item.download
            do {
                let installed = try placeStaged(item.staging, at: download.absolute, replacing: download.expected)
                outcomes[download.version.path] = .success(installed)
                if installed.outcome == .done { placed.append(download) }
            } catch let crash as FaultInjection.SimulatedCrash {
                throw crash  // the staging files stay, as after a real crash
            } catch {
                outcomes[download.version.path] = .failure(error)
            }
        }
        return placed
    }

    /// Syncs the folders `placed` went into, and those that gained an entry (`madeIn`);
    /// if that fails, none of them counts as done (the next scan finds the files, with the
    /// content the mirror has: adopted).
    private func syncFolders(
        of placed: [Download], and madeIn: Set<String>, durability: BatchDurability, outcomes: inout [String: Result<Installed, any Error>]
    ) {
        let folders = madeIn.union(placed.map { Sys.parent(of: $0.absolute) })
        do {
            try durability.syncFolders(folders.sorted(), faults: faults)
        } catch {
            for download in placed { outcomes[download.version.path] = .failure(error) }
        }
    }
}
