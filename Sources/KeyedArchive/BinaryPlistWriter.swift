/// Writes `bplist00` the way CoreFoundation does: scalars (strings, numbers, data, dates,
/// UIDs) stored once per distinct value, containers always stored, integer widths of 1, 2, 4
/// or 8 bytes (16 for values above `Int64.max`), ASCII strings as 0x5 and others as UTF-16.
struct BinaryPlistWriter {
    /// A scalar's identity for de-duplication. Numbers of different types never share an
    /// object: `1`, `1.0` and `true` are three keys.
    private enum ScalarKey: Hashable {
        case string(String), integer(Int64), unsigned(UInt64), real(UInt64), bool(Bool)
        case date(UInt64), data([UInt8]), uid(UInt64)
    }

    private enum Flat {
        case scalar(PlistValue)
        case array([Int], marker: UInt8)
        case dictionary(keys: [Int], values: [Int])
    }

    private var flat: [Flat] = []
    private var scalarIndex: [ScalarKey: Int] = [:]
    /// Object index of each UID value below `uidSlotLimit` (-1: none yet). Keyed archives hold
    /// a UID per reference, so a table beats hashing each of them.
    private var uidSlots: [Int] = []
    private static let uidSlotLimit: UInt64 = 1 << 20

    static func write(_ value: PlistValue) -> [UInt8] {
        var writer = BinaryPlistWriter()
        // Growing the table rehashes every string in it; size it once from the top level.
        writer.scalarIndex.reserveCapacity(Self.estimatedObjectCount(value))
        let top = writer.flatten(value)
        return writer.serialize(top: top)
    }

    /// Elements of the top container and of its children: the `$objects` of a keyed archive.
    private static func estimatedObjectCount(_ value: PlistValue) -> Int {
        func size(_ value: PlistValue) -> Int {
            switch value {
            case .array(let items), .set(let items): items.count
            case .dictionary(let entries): entries.count
            default: 1
            }
        }
        switch value {
        case .array(let items), .set(let items): return items.reduce(0) { $0 + size($1) }
        case .dictionary(let entries): return entries.reduce(0) { $0 + size($1.value) }
        default: return 1
        }
    }

    /// Numbers objects depth first; `PlistValue` is a tree, so this terminates.
    private mutating func flatten(_ value: PlistValue) -> Int {
        switch value {
        case .array(let items): return flattenContainer(items, marker: 0xA0)
        case .set(let items): return flattenContainer(items, marker: 0xC0)
        case .dictionary(let entries):
            let index = reserve()
            let keys = entries.map { flatten($0.key) }
            let values = entries.map { flatten($0.value) }
            flat[index] = .dictionary(keys: keys, values: values)
            return index
        case .uid(let uid) where uid < Self.uidSlotLimit:
            return uidObject(Int(uid), value)
        default:
            let key = Self.scalarKey(value)
            if let existing = scalarIndex[key] { return existing }
            flat.append(.scalar(value))
            scalarIndex[key] = flat.count - 1
            return flat.count - 1
        }
    }

    private mutating func uidObject(_ uid: Int, _ value: PlistValue) -> Int {
        if uid >= uidSlots.count { uidSlots.append(contentsOf: repeatElement(-1, count: max(uid + 1 - uidSlots.count, uidSlots.count))) }
        if uidSlots[uid] >= 0 { return uidSlots[uid] }
        flat.append(.scalar(value))
        uidSlots[uid] = flat.count - 1
        return flat.count - 1
    }

    private mutating func flattenContainer(_ items: [PlistValue], marker: UInt8) -> Int {
        let index = reserve()
        let refs = items.map { flatten($0) }
        flat[index] = .array(refs, marker: marker)
        return index
    }

    private mutating func reserve() -> Int {
        flat.append(.array([], marker: 0xA0))
        return flat.count - 1
    }

    private static func scalarKey(_ value: PlistValue) -> ScalarKey {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .unsignedInteger(let number): .unsigned(number)
        case .real(let number): .real(number.bitPattern)
        case .bool(let flag): .bool(flag)
        case .date(let seconds): .date(seconds.bitPattern)
        case .data(let bytes): .data(bytes)
        case .uid(let uid): .uid(uid)
        case .array, .set, .dictionary: .uid(UInt64.max) // not reached: containers are flattened
        }
    }

    private func serialize(top: Int) -> [UInt8] {
        let refSize = Self.byteWidth(UInt64(max(flat.count - 1, 0)))
        var out = BinaryPlistReader.magic
        out.reserveCapacity(flat.count * 16)
        var offsets = [Int]()
        offsets.reserveCapacity(flat.count)
        for object in flat {
            offsets.append(out.count)
            switch object {
            case .scalar(let value): Self.appendScalar(value, to: &out)
            case .array(let refs, let marker):
                Self.appendHeader(marker, count: refs.count, to: &out)
                for ref in refs { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
            case .dictionary(let keys, let values):
                Self.appendHeader(0xD0, count: keys.count, to: &out)
                for ref in keys { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
                for ref in values { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = Self.byteWidth(UInt64(offsets.last ?? 0))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), width: offsetSize, to: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        Self.appendBigEndian(UInt64(flat.count), width: 8, to: &out)
        Self.appendBigEndian(UInt64(top), width: 8, to: &out)
        Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return out
    }

    private static func appendScalar(_ value: PlistValue, to out: inout [UInt8]) {
        switch value {
        case .string(let text): appendString(text, to: &out)
        case .integer(let number): appendInteger(number, to: &out)
        case .unsignedInteger(let number):
            out.append(0x14)
            appendBigEndian(0, width: 8, to: &out)
            appendBigEndian(number, width: 8, to: &out)
        case .real(let number):
            out.append(0x23)
            appendBigEndian(number.bitPattern, width: 8, to: &out)
        case .bool(let flag): out.append(flag ? 0x09 : 0x08)
        case .date(let seconds):
            out.append(0x33)
            appendBigEndian(seconds.bitPattern, width: 8, to: &out)
        case .data(let bytes):
            appendHeader(0x40, count: bytes.count, to: &out)
            out.append(contentsOf: bytes)
        case .uid(let uid):
            let width = byteWidth(uid)
            out.append(0x80 | UInt8(width - 1))
            appendBigEndian(uid, width: width, to: &out)
        case .array, .set, .dictionary: break
        }
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let utf8 = text.utf8
        let ascii = utf8.withContiguousStorageIfAvailable { Self.isASCII($0) } ?? utf8.allSatisfy { $0 < 0x80 }
        if ascii {
            appendHeader(0x50, count: utf8.count, to: &out)
            out.append(contentsOf: utf8)
            return
        }
        let units = Array(text.utf16)
        appendHeader(0x60, count: units.count, to: &out)
        for unit in units { out.append(UInt8(unit >> 8)); out.append(UInt8(unit & 0xFF)) }
    }

    /// Eight bytes at a time: any byte with its high bit set means not ASCII.
    private static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let raw = UnsafeRawBufferPointer(buffer)
        while index + 8 <= buffer.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < buffer.count {
            if buffer[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    private static func appendInteger(_ number: Int64, to out: inout [UInt8]) {
        guard number >= 0 else {
            out.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), width: 8, to: &out)
            return
        }
        let width = byteWidth(UInt64(number))
        let log2Width: UInt8 = width == 1 ? 0 : width == 2 ? 1 : width <= 4 ? 2 : 3
        out.append(0x10 | log2Width)
        appendBigEndian(UInt64(number), width: 1 << Int(log2Width), to: &out)
    }

    private static func appendHeader(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    /// Smallest of 1, 2, 4, 8 bytes that holds `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}
