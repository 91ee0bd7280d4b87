import Foundation
import Testing

/// The state folder's databases written over (a disk fault, a bad restore from backup):
/// ubqd still starts, sets the damaged files aside and says so, indexes again, and syncs
/// as a new device without losing a file.
@Suite struct DamagedStateTests {
    @Test func damagedIndexAndSyncStateAreSetAsideAndMadeAnew() throws {
        let shared = SharedMirror()
        let (a, b) = try shared.twoDevices()
        try a.shell("echo kept > kept.txt")
        try shared.sync(a, b)
        a.stop()
        let state = a.base + "/state"
        for name in ["index.sqlite", "sync.sqlite"] {
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: state + "/" + name + suffix) }
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: state + "/" + name))
        }
        try a.shell("echo while-down > later.txt")

        try a.start(extraEnvironment: ["UBQ_MIRROR": shared.path])
        let log = a.log()
        #expect(log.contains("the index \(state)/index.sqlite is damaged"), "\(log)")
        #expect(log.contains("the sync state \(state)/sync.sqlite is damaged"), "\(log)")
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(names.filter { $0.contains(".damaged-") }.count == 2, "\(names)")
        try a.expectIndexMatchesDisk()
        try shared.sync(a, b)
        #expect(b.documentsTree() == ["kept.txt": "kept\n", "later.txt": "while-down\n"])
        #expect(a.documentsTree() == b.documentsTree())
    }
}
