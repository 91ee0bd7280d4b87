import SyncPlanning

extension SyncPass {
    /// Brings this device's view of the container up to date after the pass: the paths it
    /// touched, or the whole view when the pass looked at everything (`whole`: it also
    /// repairs it). `base` is the whole base if the caller holds it current, else it is read. Never fails the
    /// pass: the logs and the store are the truth, and nothing reads the view back, so
    /// whatever goes wrong is a problem in the report and the next full pass tries again.
    func updateView(touched: Set<String>, whole: Bool, base current: [String: BaseRow]?, report: inout PassReport) {
        guard whole || !touched.isEmpty else { return }
        let layout = container.layout
        // A mirror that went away mid-pass: writing the view would create folders on
        // the empty mount point.
        guard Sys.lstat(layout.marker) != nil else {
            report.problems.append("mirror view not updated: \(layout.marker) is gone")
            return
        }
        let folder = layout.view(container: container.id, device: container.device)
        do {
            guard let method = try views.method(probingIn: folder, problems: &report.problems) else { return }
            let view = MirrorView(folder: folder, layout: layout, linker: views, method: method)
            var problems = ViewProblems()
            if whole {
                try view.repair(base: try current ?? database.base(container: container.id), problems: &problems)
            } else {
                try view.update(touched, base: try database.base(container: container.id, under: Array(touched)), problems: &problems)
            }
            report.problems += problems.summary
        } catch {
            report.problems.append("mirror view not updated: \(error)")
        }
    }
}

extension SyncAction {
    /// The paths whose view entry this action may change: its own, and where a move came from.
    var viewPaths: [String] {
        switch self {
        case .publish(let path, _, _, let movedFrom): [path] + (movedFrom.map { [$0] } ?? [])
        case .apply(let version, _): [version.path] + (version.movedFrom.map { [$0] } ?? [])
        case .adopt(let path, _, _): [path]
        case .follow(let followed): [followed.move.path, followed.from]
        }
    }
}
