import Foundation
import GRDB
import RawPaths

/// The folders whose mode a pass lifted and has not put back yet (`FolderLift`): recorded
/// before the mode changes, forgotten once it is back.
extension SyncDatabase {
    func recordLifted(_ folders: [LiftedFolder]) throws {
        guard !folders.isEmpty else { return }
        try queue.write { db in
            for folder in folders {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO lifted_folder(path, mode, given, earlier) VALUES (?, ?, ?, ?)",
                    arguments: [Data(folder.path.bytes), Int64(folder.restore), Int64(folder.given), folder.earlier.map { Int64($0) }])
            }
        }
    }

    func liftedFolders() throws -> [LiftedFolder] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT path, mode, given, earlier FROM lifted_folder").map { row in
                let path: Data = row["path"]
                let mode: Int64 = row["mode"], given: Int64 = row["given"]
                let earlier: Int64? = row["earlier"]
                return LiftedFolder(
                    path: RawPath(bytes: Array(path)), restore: mode_t(truncatingIfNeeded: mode), given: mode_t(truncatingIfNeeded: given),
                    earlier: earlier.map { mode_t(truncatingIfNeeded: $0) })
            }
        }
    }

    func forgetLifted() throws {
        try queue.write { db in try db.execute(sql: "DELETE FROM lifted_folder") }
    }
}
