import Foundation
import GRDB
import RawPaths

/// The folders whose mode a pass lifted and has not put back yet (`FolderLift`): recorded
/// before the mode changes, forgotten once it is back.
extension SyncDatabase {
    func recordLifted(_ folders: [(path: RawPath, mode: mode_t)]) throws {
        guard !folders.isEmpty else { return }
        try queue.write { db in
            for folder in folders {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO lifted_folder(path, mode) VALUES (?, ?)",
                    arguments: [Data(folder.path.bytes), Int64(folder.mode)])
            }
        }
    }

    func liftedFolders() throws -> [(path: RawPath, mode: mode_t)] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT path, mode FROM lifted_folder").map { row in
                let path: Data = row["path"]
                let mode: Int64 = row["mode"]
                return (RawPath(bytes: Array(path)), mode_t(truncatingIfNeeded: mode))
            }
        }
    }

    func forgetLifted() throws {
        try queue.write { db in try db.execute(sql: "DELETE FROM lifted_folder") }
    }
}
