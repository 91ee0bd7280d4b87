import APIModel
import Foundation
import PresenterPlanning

/// Changes the watcher saw, made by programs that coordinate or not.
extension PresenterHub {
    /// Tells presenters of the changes in one applied batch. A change to an item exactly as
    /// a coordinated write left it was told already at the end of that access: skipped. A
    /// presented file that vanished while a file with its inode appeared was moved.
    func observe(_ changes: [ObservedChange]) {
        guard sessions.values.contains(where: { !$0.presenters.isEmpty }) else { return }
        let fresh = pairMoves(changes.filter { !isEcho($0) })
        guard !fresh.isEmpty else { return }
        send(ObservedChangePlanner.notices(fresh, presenters: presences), request: nil, asking: false)
        refreshIdentities(of: Set(fresh.compactMap { change -> [UInt8]? in
            switch change {
            case .changed(let path), .appeared(let path): path
            default: nil
            }
        }))
    }

    private func isEcho(_ change: ObservedChange) -> Bool {
        switch change {
        case .changed(let path), .appeared(let path):
            guard let known = announced[path], let now = FileStamp(path) else { return false }
            return known.stamp == now
        default: return false
        }
    }

    /// Turns `removed(p)` and `appeared(q)` into `moved(p, q)` when p is presented and q is
    /// the same inode (a rename by a program that does not coordinate).
    func pairMoves(_ changes: [ObservedChange]) -> [ObservedChange] {
        var presented: [[UInt8]: FileStamp.Identity] = [:]
        for session in sessions.values {
            for registration in session.presenters.values { presented[registration.path] = registration.identity }
        }
        let gone = changes.compactMap { change -> ([UInt8], FileStamp.Identity)? in
            guard case .removed(let path) = change, let identity = presented[path] else { return nil }
            return (path, identity)
        }
        guard !gone.isEmpty else { return changes }
        var arrivals: [FileStamp.Identity: [UInt8]] = [:]
        for case .appeared(let path) in changes {
            if let identity = FileStamp(path)?.identity { arrivals[identity] = path }
        }
        var moved: [[UInt8]: [UInt8]] = [:]
        for (path, identity) in gone { if let target = arrivals[identity] { moved[path] = target } }
        let targets = Set(moved.values)
        return changes.compactMap { change in
            switch change {
            case .removed(let path): moved[path].map { .moved(from: path, to: $0) } ?? change
            case .appeared(let path) where targets.contains(path): nil
            default: change
            }
        }
    }

    /// Presented items that changed may have a new inode now (a save by rename).
    func refreshIdentities(of paths: Set<[UInt8]>) {
        for (sessionID, session) in sessions {
            for (id, registration) in session.presenters where paths.contains(registration.path) {
                sessions[sessionID]?.presenters[id]?.identity = FileStamp(registration.path)?.identity
            }
        }
    }
}
