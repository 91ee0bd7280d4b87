import GRDB

/// The checkpoints of `LogArrivals`: when this device first read other devices' log lines.
/// They hold for the mirror the base is synced with: another mirror's logs are other lines
/// (`remember` forgets them with the base).
extension SyncDatabase {
    func logArrivals() throws -> [LogArrivals.Checkpoint] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT container, device, seq, seen FROM log_arrival").map { row in
                LogArrivals.Checkpoint(container: row[0], device: row[1], sequence: UInt64(row[2] as Int64), seen: row[3])
            }
        }
    }

    func record(_ checkpoint: LogArrivals.Checkpoint) throws {
        try queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO log_arrival (container, device, seq, seen) VALUES (?, ?, ?, ?)",
                arguments: [checkpoint.container, checkpoint.device, Int64(clamping: checkpoint.sequence), checkpoint.seen])
        }
    }
}
