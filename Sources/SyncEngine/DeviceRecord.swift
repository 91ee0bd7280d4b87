import Foundation
import UbiquitySettings

/// A device's entry in the mirror, `devices/<id>.json`: its id, the name people know it
/// by, and when it first registered (`docs/MIRROR-FORMAT.md`). Only that device writes
/// it: when it first syncs with the mirror, and again when its user renames it.
struct DeviceRecord: Equatable {
    var id: String
    var name: String
    /// Milliseconds since 1970.
    var created: Int64

    /// The record at `path`, if it is one; nil for a file missing, unreadable or not a
    /// device record (another device's bad write must not stop this one).
    init?(path: String) {
        guard let bytes = Sys.readRegularFile(path),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let id = object["id"] as? String, let name = object["name"] as? String
        else { return nil }
        self.init(id: id, name: name, created: (object["created"] as? NSNumber)?.int64Value ?? 0)
    }

    init(id: String, name: String, created: Int64) {
        self.id = id
        self.name = name
        self.created = created
    }

    /// The file's bytes: one JSON object with sorted keys, then a newline.
    func encoded() throws -> [UInt8] {
        let json = try JSONSerialization.data(withJSONObject: ["id": id, "name": name, "created": created], options: [.sortedKeys])
        return Array(json) + [UInt8(ascii: "\n")]
    }
}

extension MirrorLayout {
    /// Device id → human name, from the mirror's `devices/` folder, each made safe to show
    /// and to put in a file name (`DeviceName.displayable`): another device wrote them.
    func deviceNames() -> [String: String] {
        var names: [String: String] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: devices)) ?? [] where file.hasSuffix(".json") {
            guard let record = DeviceRecord(path: devices + "/" + file), let name = DeviceName.displayable(record.name) else { continue }
            names[record.id] = name
        }
        return names
    }
}
