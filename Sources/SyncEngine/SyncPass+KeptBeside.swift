import SyncPlanning

extension SyncPass {
    /// Copies each file or link that a folder still in use here is published over
    /// (`SyncPlan.keptBeside`) beside the folder, before the folder goes out: the next
    /// round publishes the copy like any new file, and every device sees it. One that
    /// cannot be copied is said; the folder goes out all the same, and the version stays in
    /// the path's history (`ubq versions`).
    func keepBeside(_ versions: [VersionRecord], executor: Executor, report: inout PassReport) {
        guard !versions.isEmpty else { return }
        let names = container.layout.deviceNames()
        let copies = ConflictCopy(containerFolder: container.folder, store: executor.store, faults: faults)
        for version in versions {
            do {
                try copies.place(version, deviceName: names[version.id.device] ?? version.id.device)
            } catch {
                report.problems.append(
                    "\(version.path): the \(version.state?.kind.rawValue ?? "item") \(version.id) that the folder here takes the place of was not copied beside it (\(error)); `ubq versions` still lists it")
            }
        }
    }
}
