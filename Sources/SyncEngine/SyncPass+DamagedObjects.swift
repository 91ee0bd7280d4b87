import Glibc
import SyncPlanning

extension SyncPass {
    /// Stores again the objects readers set aside as damaged (`DamagedObjects`) whose
    /// content a file here still holds as the base has it: without that, no device could
    /// fetch the content again, and every device holding it would go on trusting the
    /// object's name. Full passes only; when nothing was ever set aside it costs one
    /// failed `opendir`.
    func restoreDamagedObjects(local: LocalTree, base: [String: BaseRow], executor: Executor) -> [String] {
        var wanted = DamagedObjects.missing(in: container.layout)
        guard !wanted.isEmpty else { return [] }
        var problems: [String] = []
        for (path, entry) in local.entries {
            guard let sha256 = entry.state.sha256, wanted.contains(sha256), base[path]?.entry.state?.sha256 == sha256 else { continue }
            var unchanged = entry
            unchanged.earlyCopy = nil  // an early copy the pass made has gone into the store or away
            guard let upload = Upload(path, state: entry.state, local: unchanged, in: container.folder) else { continue }
            do {
                switch executor.stage([upload])[path] {
                case .success(let staged?)?: try executor.store.commit([staged], faults: faults)
                case .success(nil)?: break  // another device stored it meanwhile
                case .failure(let error)?: throw error
                case nil: continue  // no read claim now: the next full pass tries again
                }
                wanted.remove(sha256)
            } catch {
                problems.append("\(upload.absolute): its content's damaged store object was not stored again: \(error)")
            }
        }
        return problems
    }
}
