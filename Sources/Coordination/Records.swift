import Foundation

/// What a holder writes into its slot of a lock file, as one line of text:
/// `UBQ1 pid=42 lock=s access=reading since=<ns since 1970> cmd=<name> path=<item>`,
/// with bytes below `!`, `%` and DEL percent-escaped, so any path fits on the line.
struct HolderRecord: Equatable, Sendable {
    var pid: Int32
    var exclusive: Bool
    var access: ClaimHolder.Access
    var sinceNanoseconds: Int64
    var command: [UInt8]
    var item: [UInt8]

    func encoded(size: Int) -> [UInt8] {
        var line = Array("UBQ1 pid=\(pid) lock=\(exclusive ? "x" : "s") access=\(access.rawValue) since=\(sinceNanoseconds) cmd=".utf8)
        line.reserveCapacity(size)
        HolderRecord.escape(command.prefix(64), into: &line, limit: size / 2)
        line += Array(" path=".utf8)
        HolderRecord.escape(item, into: &line, limit: size - 1)
        line.append(UInt8(ascii: "\n"))
        line.append(contentsOf: repeatElement(0, count: max(size - line.count, 0)))
        return line
    }

    init(pid: Int32, exclusive: Bool, access: ClaimHolder.Access, sinceNanoseconds: Int64, command: [UInt8], item: [UInt8]) {
        self.pid = pid
        self.exclusive = exclusive
        self.access = access
        self.sinceNanoseconds = sinceNanoseconds
        self.command = command
        self.item = item
    }

    init?(decoding bytes: ArraySlice<UInt8>) {
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != 0 }
        var fields: [String: [UInt8]] = [:]
        let parts = line.split(separator: UInt8(ascii: " "))
        guard parts.first?.elementsEqual("UBQ1".utf8) == true else { return nil }
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            fields[String(decoding: part[..<equals], as: UTF8.self)] = HolderRecord.unescape(part[(equals + 1)...])
        }
        func text(_ key: String) -> String? { fields[key].map { String(decoding: $0, as: UTF8.self) } }
        guard let pid = text("pid").flatMap(Int32.init), let since = text("since").flatMap(Int64.init),
              let access = text("access").flatMap(ClaimHolder.Access.init(rawValue:)),
              let command = fields["cmd"], let item = fields["path"] else { return nil }
        self.init(pid: pid, exclusive: text("lock") == "x", access: access, sinceNanoseconds: since, command: command, item: item)
    }

    var holder: ClaimHolder {
        ClaimHolder(
            pid: pid, command: ItemPath.display(command),
            since: Date(timeIntervalSince1970: Double(sinceNanoseconds) / 1e9),
            access: access, path: ItemPath.display(item), exclusive: exclusive)
    }

    /// Appends `bytes` escaped to `out`, stopping before `out` would exceed `limit` bytes.
    private static func escape(_ bytes: some Sequence<UInt8>, into out: inout [UInt8], limit: Int) {
        let hex: StaticString = "0123456789ABCDEF"
        hex.withUTF8Buffer { hex in
            for byte in bytes {
                if byte <= 0x20 || byte == UInt8(ascii: "%") || byte == 0x7f {
                    guard out.count + 3 <= limit else { return }
                    out.append(UInt8(ascii: "%"))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xf)])
                } else {
                    guard out.count + 1 <= limit else { return }
                    out.append(byte)
                }
            }
        }
    }

    private static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.endIndex,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}

/// A move recorded by the writer that moved an item: `UBQMOVE1`, the wall-clock time in
/// nanoseconds, the lengths of both paths (little-endian), then the paths' bytes.
struct MoveRecord: Equatable, Sendable {
    static let headerSize = 24

    var nanoseconds: Int64
    var from: [UInt8]
    var to: [UInt8]

    init(nanoseconds: Int64, from: [UInt8], to: [UInt8]) {
        self.nanoseconds = nanoseconds
        self.from = from
        self.to = to
    }

    func encoded() -> [UInt8] {
        var bytes = Array("UBQMOVE1".utf8)
        withUnsafeBytes(of: nanoseconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt32(from.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: UInt32(to.count).littleEndian) { bytes += $0 }
        return bytes + from + to
    }

    private static func integer<T: FixedWidthInteger>(_ raw: [UInt8], _ offset: Int, _: T.Type) -> T {
        raw[offset..<(offset + MemoryLayout<T>.size)].reversed().reduce(0) { $0 << 8 | T($1) }
    }

    /// The size of the whole record that `header` starts, or `nil` if it starts none.
    static func encodedLength(header: [UInt8]) -> Int? {
        guard header.count >= headerSize, header.prefix(8).elementsEqual("UBQMOVE1".utf8) else { return nil }
        return headerSize + Int(integer(header, 16, UInt32.self)) + Int(integer(header, 20, UInt32.self))
    }

    init?(decoding bytes: ArraySlice<UInt8>) {
        let raw = Array(bytes)
        guard raw.count >= 24, raw.prefix(8).elementsEqual("UBQMOVE1".utf8) else { return nil }
        func integer<T: FixedWidthInteger>(_ offset: Int, _ type: T.Type) -> T { MoveRecord.integer(raw, offset, type) }
        let fromCount = Int(integer(16, UInt32.self)), toCount = Int(integer(20, UInt32.self))
        guard raw.count >= 24 + fromCount + toCount else { return nil }
        nanoseconds = integer(8, Int64.self)
        from = Array(raw[24..<(24 + fromCount)])
        to = Array(raw[(24 + fromCount)..<(24 + fromCount + toCount)])
    }
}
