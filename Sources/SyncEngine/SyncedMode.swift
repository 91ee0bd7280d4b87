import Glibc
import Indexing
import SyncPlanning

/// Which mode bits sync carries: the permission bits (read, write, execute for owner,
/// group and others). The set-user-ID, set-group-ID and sticky bits are neither published
/// nor applied: any device can write the mirror, and a set-ID file from it would run with
/// the rights of the user who receives it (root's, for root). So a device keeps such bits
/// on its own files, and they go nowhere.
enum SyncedMode {
    static let bits: UInt32 = 0o777
}

extension FileStatus {
    /// The mode bits a scan records (`SyncedMode`).
    var syncedMode: UInt32 { permissions & SyncedMode.bits }
}

extension EntryState {
    /// The mode this device gives the item it writes (`SyncedMode`), whatever a log says.
    var localMode: mode_t { mode_t(mode & SyncedMode.bits) }
}
