import SyncPlanning

extension SyncPass {
    /// A stream for the view of a first sync (`ViewStream`), if this pass can write it as
    /// it goes: it looks at the whole container (the caller checks) and `base` is empty.
    func startViewStream(base: [String: BaseRow], report: inout PassReport) -> ViewStream? {
        let folder = container.layout.view(container: container.id, device: container.device)
        return ViewStream.start(folder, of: container, base: base, linker: views, writer: viewWriter, problems: &report.problems)
    }

    /// Brings this device's view of the container up to date after the pass: the paths it
    /// touched, or the whole view when the pass looked at everything (`whole`: it also
    /// removes what a crash or a person left there). The base rows are read here, on the
    /// sync thread; the view is written here too, or by `viewWriter` when the pass has one
    /// (its problems are then reported by the writer, not in this pass's report). Never
    /// fails the pass: the logs and the store are the truth, and nothing reads the view
    /// back, so whatever goes wrong is a problem reported and the next full pass tries again.
    func updateView(touched: Set<String>, whole: Bool, base current: [String: BaseRow]?, report: inout PassReport) {
        guard whole || !touched.isEmpty else { return }
        let layout = container.layout
        if let gone = ViewUpdate.mirrorGone(layout) { return report.problems.append(gone) }
        let folder = layout.view(container: container.id, device: container.device)
        do {
            guard let method = try views.method(probingIn: folder, problems: &report.problems) else { return }
            let base = try whole ? current ?? database.base(container: container.id) : database.base(container: container.id, under: Array(touched))
            let update = ViewUpdate(view: folder, layout: layout, linker: views, method: method, paths: whole ? nil : touched, base: base)
            guard let viewWriter else { return report.problems += update.write() }
            viewWriter.submit(update, container: container.id)
        } catch {
            report.problems.append("mirror view not updated: \(error)")
        }
    }
}

/// One update of a view, with everything it needs read: it can be written on another
/// thread than the pass's (`ViewWriter`).
struct ViewUpdate: Sendable {
    let view: String
    let layout: MirrorLayout
    let linker: ViewLinker
    let method: ViewLinker.Method
    /// The paths to bring in line with `base`, or nil for the whole view.
    let paths: Set<String>?
    let base: [String: BaseRow]
    /// The view's folders known so far, when this is one of several parts of a pass's update.
    var plainFolders = PlainFolders()

    /// Writes the update; returns its problems.
    func write() -> [String] {
        if let gone = Self.mirrorGone(layout) { return [gone] }
        let mirrorView = MirrorView(folder: view, layout: layout, linker: linker, method: method, plainFolders: plainFolders)
        var problems = ViewProblems()
        do {
            if let paths {
                try mirrorView.update(paths, base: base, problems: &problems)
            } else {
                try mirrorView.repair(base: base, problems: &problems)
            }
            return problems.summary
        } catch {
            return problems.summary + ["mirror view not updated: \(error)"]
        }
    }

    /// Why no view can be written, if the mirror went away (mid-pass, or since the pass):
    /// writing would create folders on the empty mount point.
    static func mirrorGone(_ layout: MirrorLayout) -> String? {
        Sys.lstat(layout.marker) == nil ? "mirror view not updated: \(layout.marker) is gone" : nil
    }
}

extension SyncAction {
    /// The paths this action may change (on disk, in the base, in the view): its own, and
    /// where a move came from.
    var paths: [String] {
        switch self {
        case .publish(let path, _, _, let movedFrom): [path] + (movedFrom.map { [$0] } ?? [])
        case .apply(let version, _): [version.path] + (version.movedFrom.map { [$0] } ?? [])
        case .adopt(let path, _, _): [path]
        case .follow(let followed): [followed.move.path, followed.from]
        case .relocate(let relocation): [relocation.to, relocation.from] + relocation.departures
        case .land(let landing): [landing.to, landing.version.path] + (landing.source.map { [$0.path] } ?? [])
        }
    }
}
