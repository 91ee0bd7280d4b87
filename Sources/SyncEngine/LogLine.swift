import Foundation
import SyncPlanning

/// One line of a device log, as docs/MIRROR-FORMAT.md writes it.
struct LogLine: Codable, Equatable {
    var seq: UInt64
    var time: Int64
    var path: String
    var parents: [String]
    var op: String
    var kind: String?
    var mode: UInt32?
    var sha256: String?
    var size: Int64?
    var mtime: Int64?
    var target: String?
    var movedFrom: String?
    var forgets: Bool?

    /// The record this line is in the log of `device`; nil with the reason when the line
    /// breaks the format.
    func record(device: String) -> Result<VersionRecord, LogLineError> {
        guard (1...Self.largestSequence).contains(seq) else {
            return .failure(LogLineError("seq \(seq) is outside 1...\(Self.largestSequence)"))
        }
        var parentIDs: [VersionID] = []
        for parent in parents {
            guard var id = VersionID(parent) else { return .failure(LogLineError("parent \"\(parent)\" is not DEVICE:SEQ")) }
            // Most parents are the device's own: sharing its name spares each record that
            // names one a string of its own (about 7 MB of heap for 100,000 edited files).
            if id.device == device { id.device = device }
            parentIDs.append(id)
        }
        for (field, value) in [("path", path), ("movedFrom", movedFrom)] {
            guard let value, !Self.isInsideTheContainer(value) else { continue }
            return .failure(LogLineError("\(field) \"\(value)\" is not a relative path inside the container"))
        }
        let state: EntryState?
        switch op {
        case "delete": state = nil
        case "put":
            switch decodeState() {
            case .success(let decoded): state = decoded
            case .failure(let error): return .failure(error)
            }
        default: return .failure(LogLineError("op \"\(op)\" is neither put nor delete"))
        }
        return .success(VersionRecord(
            id: VersionID(device: device, sequence: seq), path: path, parents: parentIDs, state: state, time: time,
            movedFrom: movedFrom, forgetsAncestors: forgets == true))
    }

    /// The largest `seq` a line may have (docs/MIRROR-FORMAT.md): what SQLite's integers,
    /// and so the journal, hold, with room left to number on from any line without overflow.
    static let largestSequence = UInt64(Int64.max)

    /// A path of the container as the format writes it: relative, with no `.` or `..`
    /// component (a device that wrote one could reach beyond the container), and no empty
    /// one or NUL byte, which would name on disk another path than the line's
    /// (`a//b` is `a/b`, and `a\0b` is `a`) and so reach an item past its own history.
    private static func isInsideTheContainer(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first.map({ $0 != UInt8(ascii: "/") }) ?? false, !bytes.contains(0) else { return false }
        return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains {
            $0.isEmpty || $0.elementsEqual("..".utf8) || $0.elementsEqual(".".utf8)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    private func decodeState() -> Result<EntryState, LogLineError> {
        switch kind.flatMap(EntryState.Kind.init(rawValue:)) {
        case .file:
            guard let sha256, sha256.utf8.count == 64, sha256.utf8.allSatisfy(Self.isHexDigit), let size, size >= 0 else {
                return .failure(LogLineError("a file needs a 64-digit sha256 and a size"))
            }
            // Writers write lower case: a copy only for the others.
            let lower = sha256.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") } ? sha256.lowercased() : sha256
            return .success(.file(sha256: lower, size: size, mode: mode ?? 0o644, modified: mtime))
        case .folder: return .success(.folder(mode: mode ?? 0o755))
        case .symlink:
            guard let target else { return .failure(LogLineError("a symlink needs a target")) }
            return .success(.symlink(to: target))
        case nil: return .failure(LogLineError("kind \"\(kind ?? "")\" is not file, folder or symlink"))
        }
    }
}

// In an extension, so the memberwise initializer (`LogLineScanner` uses it) stays.
extension LogLine {
    /// The line that records `record`.
    init(_ record: VersionRecord) {
        seq = record.id.sequence
        time = record.time
        path = record.path
        parents = record.parents.map(\.description)
        movedFrom = record.movedFrom
        forgets = record.forgetsAncestors ? true : nil
        guard let state = record.state else {
            op = "delete"
            return
        }
        op = "put"
        kind = state.kind.rawValue
        mode = state.mode
        sha256 = state.sha256
        size = state.kind == .file ? state.size : nil
        mtime = state.kind == .file ? state.modified : nil
        target = state.linkTarget
    }
}

struct LogLineError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
