import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync every container with the mirror now, and show the result.",
        discussion: """
            ubqd syncs on its own as files change; this runs a pass at once, with a progress bar \
            on standard error when that is a terminal. When a pass would delete more than half of \
            a container's items (and at least 20: deletion_guard_percent and \
            deletion_guard_minimum in the [sync] table of config.toml; a burst of deletions is \
            weighed whole, with those published in the minute before), ubqd holds the deletions \
            (an unmounted disk or a wrong path looks like that) until you confirm them with \
            --confirm-deletes, or undo them with --restore-deletes, which brings the files back \
            from the mirror.

            Exit status: 0 when every container synced; 75 when sync is paused (the mirror is \
            not there, the disk is full, or deletions wait for --confirm-deletes: the NOTE \
            column says which) or the mirror has stopped answering (the message says so); 1 when a container's sync failed, or some items could not be \
            synced (the problems below the table say why: a file it cannot read, a name it \
            cannot carry); 78 when no mirror is configured.
            """)

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Let through the deletions the mass-deletion guard is holding.") var confirmDeletes = false
    @Flag(help: "Undo the deletions the mass-deletion guard is holding: the files come back from the mirror.")
    var restoreDeletes = false
    @Flag(help: "Look at every item, not only at what changed since the last pass (ubqd does so every 10 minutes, or full_pass_interval_s).")
    var full = false
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        guard !(confirmDeletes && restoreDeletes) else {
            throw ValidationError("--confirm-deletes publishes the held deletions and --restore-deletes undoes them: give one")
        }
    }

    func run() async throws {
        let connection = try Connection(options)
        let request = SyncNowRequest(confirmDeletes: confirmDeletes, restoreDeletes: restoreDeletes, full: full)
        let status = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await Self.showingProgress(connection.client) { () async throws(DaemonClientError) in
                try await connection.client.post(Route.mirrorSync, body: request, as: MirrorStatus.self)
            }
        }
        if json {
            try Output.json(status)
        } else {
            SyncStatusPrinter.print(status)
        }
        let code = Self.exitCode(status)
        if code != 0 { throw ExitCode(code) }
    }

    /// Whether the pass did what was asked, for scripts (`ubq sync && poweroff`): the
    /// sysexits codes `ubq` uses elsewhere (75, try again later; 78, configuration).
    static func exitCode(_ status: MirrorStatus) -> Int32 {
        guard status.mirror != nil else { return 78 }
        let phases = Set(status.containers.map(\.phase))
        if phases.contains(.failed) { return 1 }
        // Paused first: what a paused pass did not get to is not known to have failed.
        if phases.contains(.paused) { return 75 }
        return status.containers.contains { $0.notSynced != nil } ? 1 : 0
    }

    /// Runs `body` (the request that waits for the pass) with the progress bar drawn
    /// beside it when standard error is a terminal.
    private static func showingProgress<T: Sendable>(
        _ client: DaemonClient, _ body: () async throws(DaemonClientError) -> T
    ) async throws(DaemonClientError) -> T {
        guard SyncProgressDisplay.isWanted else { return try await body() }
        let display = Task { await SyncProgressDisplay(client: client).run() }
        let result: Result<T, DaemonClientError>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        display.cancel()
        await display.value  // the line is cleared before the result is printed
        return try result.get()
    }
}

/// The sync part of `ubq status` and `ubq sync`.
enum SyncStatusPrinter {
    static func print(_ status: MirrorStatus) {
        guard let mirror = status.mirror else { return Output.line("sync: off (no mirror configured)") }
        Output.line(Table.terminalSafe("mirror: \(mirror) (this device: \(status.deviceName ?? "?") \(status.device ?? "?"))"))
        let rows = status.containers.map { container in
            [container.container, container.phase.rawValue, String(container.conflicts), Table.shortened(Table.terminalSafe(container.message ?? ""))]
        }
        Output.line(Table.render(header: ["CONTAINER", "SYNC", "CONFLICTS", "NOTE"], rows: rows, rightAligned: [2]))
        for container in status.containers {
            if let progress = container.progress { Output.line("  \(container.container): \(describe(progress))") }
            // A problem names the path it is about: shown escaped, as `ubq ls` shows names.
            for problem in container.problems { Output.line("  \(container.container): \(Table.shortened(Table.terminalSafe(problem)))") }
            if let more = container.problemsOmitted {
                Output.line("  \(container.container): and \(more) more \(more == 1 ? "problem" : "problems"): ubqd's log has them all (journalctl --user -u ubqd, under systemd)")
            }
        }
    }

    /// `120 of 300 actions done, 1.2 MiB of 5.0 MiB moved`.
    static func describe(_ progress: SyncProgress) -> String {
        "\(progress.done) of \(progress.total) actions done"
            + (progress.bytesTotal > 0
                ? ", \(ProgressBar.bytes(progress.bytesDone)) of \(ProgressBar.bytes(progress.bytesTotal)) moved" : "")
    }
}
