import APIModel
import Foundation
import PresenterPlanning

/// Changes the watcher saw, made by programs that coordinate or not.
extension PresenterHub {
    /// Tells presenters of the changes in one applied batch. A change to an item exactly as
    /// a coordinated write left it was told already at the end of that access: skipped.
    func observe(_ changes: [ObservedChange]) {
        guard sessions.values.contains(where: { !$0.presenters.isEmpty }) else { return }
        let fresh = changes.filter { !isEcho($0) }
        guard !fresh.isEmpty else { return }
        send(ObservedChangePlanner.notices(fresh, presenters: presences), request: nil, asking: false)
    }

    private func isEcho(_ change: ObservedChange) -> Bool {
        switch change {
        case .changed(let path), .appeared(let path):
            guard let known = announced[path], let now = FileStamp(path) else { return false }
            return known.stamp == now
        default: return false
        }
    }
}
