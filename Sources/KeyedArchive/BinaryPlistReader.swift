/// Reads `bplist00` data. Every offset, count and reference is checked against the data size
/// before it is used or allocated, objects referenced twice are decoded once (a cache), and a
/// reference back to an object still being decoded is a cycle, reported as an error.
struct BinaryPlistReader {
    static let magic: [UInt8] = Array("bplist00".utf8)
    private static let trailerSize = 32

    private let bytes: [UInt8]
    private let limits: DecodingLimits
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTable: Int
    private var cache: [PlistValue?]
    private var inProgress: [Bool]

    init(bytes: [UInt8], limits: DecodingLimits) throws(ArchiveError) {
        guard bytes.count >= Self.magic.count + Self.trailerSize else {
            throw .malformed("binary plist of \(bytes.count) bytes is too short for a header and trailer")
        }
        let trailer = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[trailer + 6]), refSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw .malformed("binary plist trailer at offset \(trailer) has offset size \(offsetSize) and reference size \(refSize) (each must be 1...8)")
        }
        let count = Self.bigEndian(bytes, at: trailer + 8, width: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, width: 8)
        let table = Self.bigEndian(bytes, at: trailer + 24, width: 8)
        // Each object takes at least one byte, so a count above the file size is a lie.
        guard count >= 1, count <= UInt64(bytes.count), table >= 8, table <= UInt64(trailer),
              UInt64(trailer) - table >= count * UInt64(offsetSize) else {
            throw .malformed("binary plist trailer claims \(count) objects with an offset table at \(table), which does not fit in \(bytes.count) bytes")
        }
        guard top < count else { throw .malformed("binary plist top object \(top) is not below the object count \(count)") }
        self.bytes = bytes
        self.limits = limits
        self.offsetSize = offsetSize
        self.refSize = refSize
        self.objectCount = Int(count)
        self.topObject = Int(top)
        self.offsetTable = Int(table)
        self.cache = Array(repeating: nil, count: Int(count))
        self.inProgress = Array(repeating: false, count: Int(count))
    }

    mutating func readTopObject() throws(ArchiveError) -> PlistValue {
        try object(topObject, depth: 0)
    }

    static func bigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func offset(of index: Int) throws(ArchiveError) -> Int {
        let value = Self.bigEndian(bytes, at: offsetTable + index * offsetSize, width: offsetSize)
        guard value >= 8, value < UInt64(offsetTable) else {
            throw .malformed("object \(index) has offset \(value), outside the object area 8..<\(offsetTable)")
        }
        return Int(value)
    }

    private mutating func object(_ index: Int, depth: Int) throws(ArchiveError) -> PlistValue {
        if let cached = cache[index] { return cached }
        guard !inProgress[index] else { throw .malformed("object \(index) contains itself (a reference cycle)") }
        guard depth < limits.maxDepth else { throw .limit("binary plist nests deeper than \(limits.maxDepth) at object \(index)") }
        inProgress[index] = true
        let value = try parse(at: try offset(of: index), index: index, depth: depth)
        inProgress[index] = false
        cache[index] = value
        return value
    }

    private mutating func parse(at start: Int, index: Int, depth: Int) throws(ArchiveError) -> PlistValue {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw .malformed("object \(index) at offset \(start) has unsupported marker 0x\(hex(marker))")
            }
        case 0x1: return try integer(at: start + 1, log2Width: low, index: index)
        case 0x2: return try real(at: start + 1, log2Width: low, index: index)
        case 0x3:
            guard marker == 0x33 else { throw .malformed("object \(index) at offset \(start) is a date with marker 0x\(hex(marker))") }
            guard case .real(let seconds) = try real(at: start + 1, log2Width: 3, index: index) else { return .date(0) }
            return .date(seconds)
        case 0x4:
            let (count, body) = try length(at: start, index: index)
            let end = try checkedEnd(body, count: count, width: 1, index: index)
            return .data(Array(bytes[body..<end]))
        case 0x5:
            let (count, body) = try length(at: start, index: index)
            let end = try checkedEnd(body, count: count, width: 1, index: index)
            return .string(String(decoding: bytes[body..<end], as: UTF8.self))
        case 0x6: return try utf16String(at: start, index: index)
        case 0x8:
            let end = try checkedEnd(start + 1, count: low + 1, width: 1, index: index)
            guard low < 8 else { throw .malformed("UID object \(index) at offset \(start) is \(low + 1) bytes wide (at most 8)") }
            return .uid(Self.bigEndian(bytes, at: start + 1, width: end - start - 1))
        case 0xA, 0xB, 0xC: return try collection(at: start, marker: marker, index: index, depth: depth)
        case 0xD: return try dictionary(at: start, index: index, depth: depth)
        default: throw .malformed("object \(index) at offset \(start) has unknown marker 0x\(hex(marker))")
        }
    }

    private func integer(at body: Int, log2Width: Int, index: Int) throws(ArchiveError) -> PlistValue {
        guard log2Width <= 4 else { throw .malformed("integer object \(index) at offset \(body - 1) claims \(1 << log2Width) bytes") }
        let width = 1 << log2Width
        _ = try checkedEnd(body, count: width, width: 1, index: index)
        if width < 8 { return .integer(Int64(Self.bigEndian(bytes, at: body, width: width))) }
        if width == 8 { return .integer(Int64(bitPattern: Self.bigEndian(bytes, at: body, width: 8))) }
        // 16 bytes: Apple writes unsigned 64-bit values with a zero high half, and negative
        // values sign-extended; anything else does not fit in 64 bits.
        let high = Self.bigEndian(bytes, at: body, width: 8), low = Self.bigEndian(bytes, at: body + 8, width: 8)
        if high == 0 { return low > UInt64(Int64.max) ? .unsignedInteger(low) : .integer(Int64(low)) }
        if high == UInt64.max, low >= 1 << 63 { return .integer(Int64(bitPattern: low)) }
        throw .malformed("16-byte integer object \(index) at offset \(body - 1) does not fit in 64 bits")
    }

    private func real(at body: Int, log2Width: Int, index: Int) throws(ArchiveError) -> PlistValue {
        switch log2Width {
        case 2:
            _ = try checkedEnd(body, count: 4, width: 1, index: index)
            return .real(Double(Float(bitPattern: UInt32(Self.bigEndian(bytes, at: body, width: 4)))))
        case 3:
            _ = try checkedEnd(body, count: 8, width: 1, index: index)
            return .real(Double(bitPattern: Self.bigEndian(bytes, at: body, width: 8)))
        default:
            throw .malformed("real object \(index) at offset \(body - 1) has width code \(log2Width) (only 4 or 8 bytes)")
        }
    }

    private func utf16String(at start: Int, index: Int) throws(ArchiveError) -> PlistValue {
        let (count, body) = try length(at: start, index: index)
        _ = try checkedEnd(body, count: count, width: 2, index: index)
        var units = [UInt16]()
        units.reserveCapacity(count)
        for unit in 0..<count { units.append(UInt16(bytes[body + 2 * unit]) << 8 | UInt16(bytes[body + 2 * unit + 1])) }
        return .string(String(decoding: units, as: UTF16.self))
    }

    private mutating func collection(at start: Int, marker: UInt8, index: Int, depth: Int) throws(ArchiveError) -> PlistValue {
        let (count, body) = try length(at: start, index: index)
        _ = try checkedEnd(body, count: count, width: refSize, index: index)
        var items = [PlistValue]()
        items.reserveCapacity(count)
        for item in 0..<count { items.append(try object(try reference(at: body + item * refSize, index: index), depth: depth + 1)) }
        return marker >> 4 == 0xA ? .array(items) : .set(items)
    }

    private mutating func dictionary(at start: Int, index: Int, depth: Int) throws(ArchiveError) -> PlistValue {
        let (count, body) = try length(at: start, index: index)
        _ = try checkedEnd(body, count: count, width: 2 * refSize, index: index)
        var entries = [PlistEntry]()
        entries.reserveCapacity(count)
        for item in 0..<count {
            let key = try object(try reference(at: body + item * refSize, index: index), depth: depth + 1)
            let value = try object(try reference(at: body + (count + item) * refSize, index: index), depth: depth + 1)
            entries.append(PlistEntry(key: key, value: value))
        }
        return .dictionary(entries)
    }

    private func reference(at position: Int, index: Int) throws(ArchiveError) -> Int {
        let ref = Self.bigEndian(bytes, at: position, width: refSize)
        guard ref < UInt64(objectCount) else {
            throw .malformed("object \(index) refers to object \(ref) at offset \(position), but there are only \(objectCount)")
        }
        return Int(ref)
    }

    /// The element count of a data/string/container object and where its body starts.
    private func length(at start: Int, index: Int) throws(ArchiveError) -> (Int, Int) {
        let low = Int(bytes[start] & 0x0F)
        if low != 0x0F { return (low, start + 1) }
        guard start + 1 < offsetTable, bytes[start + 1] >> 4 == 0x1 else {
            throw .malformed("object \(index) at offset \(start) has a length that is not an integer")
        }
        let log2Width = Int(bytes[start + 1] & 0x0F)
        guard log2Width <= 3 else { throw .malformed("object \(index) at offset \(start) has a \(1 << log2Width)-byte length") }
        guard case .integer(let count) = try integer(at: start + 2, log2Width: log2Width, index: index), count >= 0,
              count <= Int64(bytes.count) else {
            throw .malformed("object \(index) at offset \(start) has a length larger than the file")
        }
        return (Int(count), start + 2 + (1 << log2Width))
    }

    /// Checks that `count` items of `width` bytes from `body` lie inside the object area.
    private func checkedEnd(_ body: Int, count: Int, width: Int, index: Int) throws(ArchiveError) -> Int {
        let (size, overflow) = count.multipliedReportingOverflow(by: width)
        guard !overflow, body <= offsetTable, size <= offsetTable - body else {
            throw .malformed("object \(index) at offset \(body - 1) runs past the object area (\(count) items of \(width) bytes)")
        }
        return body + size
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
