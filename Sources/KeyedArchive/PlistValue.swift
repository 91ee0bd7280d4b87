/// One property-list value, as both the binary and the XML formats hold it.
///
/// Dictionaries keep their entries in file order and allow keys that are not strings (binary
/// plists written by Apple sometimes have integer keys). Integers above `Int64.max` are kept
/// apart because the binary format stores them as 16-byte integers.
public enum PlistValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01T00:00:00Z.
    case date(Double)
    case data([UInt8])
    case uid(UInt64)
    case array([PlistValue])
    case set([PlistValue])
    case dictionary([PlistEntry])

    /// The value for a string key of a dictionary (linear: archive dictionaries are small).
    public subscript(key: String) -> PlistValue? {
        guard case .dictionary(let entries) = self else { return nil }
        for entry in entries {
            if case .string(let name) = entry.key, name == key { return entry.value }
        }
        return nil
    }

    /// A short name of the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer, .unsignedInteger: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .uid: "UID"
        case .array: "array"
        case .set: "set"
        case .dictionary: "dictionary"
        }
    }
}

/// One key/value pair of a property-list dictionary.
public struct PlistEntry: Sendable, Equatable {
    public var key: PlistValue
    public var value: PlistValue

    public init(key: PlistValue, value: PlistValue) {
        self.key = key
        self.value = value
    }

    public init(_ key: String, _ value: PlistValue) {
        self.key = .string(key)
        self.value = value
    }
}

/// The two serialisations of a property list.
public enum PlistFormat: String, Sendable, CaseIterable {
    case binary
    case xml
}

/// Entry points for property lists: detect the format, read, write.
public enum PropertyList {
    /// `binary`, `xml`, or `other` (the names used by `plist_format` in `nska-json-v1`).
    public static func formatName(of bytes: [UInt8]) -> String {
        if bytes.starts(with: BinaryPlistReader.magic) { return "binary" }
        var index = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "<") ? "xml" : "other"
    }

    public static func decode(_ bytes: [UInt8], limits: DecodingLimits = .standard) throws(ArchiveError) -> PlistValue {
        switch formatName(of: bytes) {
        case "binary":
            var reader = try BinaryPlistReader(bytes: bytes, limits: limits)
            return try reader.readTopObject()
        case "xml":
            var reader = XMLPlistReader(bytes: bytes, limits: limits)
            return try reader.read()
        default: throw ArchiveError(.notAPropertyList, "not a property list: neither 'bplist00' nor '<' at offset 0")
        }
    }

    public static func encode(_ value: PlistValue, format: PlistFormat) throws(ArchiveError) -> [UInt8] {
        switch format {
        case .binary: return BinaryPlistWriter.write(value)
        case .xml: return try XMLPlistWriter.write(value)
        }
    }
}
