import Foundation
import KeyedArchive

/// Decodes an archive with swift-corelibs-foundation's NSKeyedUnarchiver and renders what it
/// gives in the typed JSON form, so Foundation is one more independent reader.
enum FoundationTyped {
    static func decode(_ bytes: [UInt8], key: String) throws -> JSONValue {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(bytes))
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        let object = unarchiver.decodeObject(forKey: key)
        if let error = unarchiver.error { throw error }
        return typed(object)
    }

    static func typed(_ value: Any?) -> JSONValue {
        guard let value else { return .null }
        switch value {
        case let number as NSNumber: return typed(number)
        case let text as String: return .object([("str", .string(text))])
        case let text as NSString: return .object([("str", .string(text as String))])
        case let data as Data: return .object([("data", .string(Base64.encode([UInt8](data))))])
        case let data as NSData: return .object([("data", .string(Base64.encode([UInt8](data as Data))))])
        case let date as Date: return .object([("date", .real(date.timeIntervalSinceReferenceDate))])
        case let date as NSDate: return .object([("date", .real(date.timeIntervalSinceReferenceDate))])
        case let array as NSArray: return .object([("array", .array(array.map { typed($0) }))])
        case let set as NSSet: return .object([("set", .array(set.map { typed($0) }))])
        case let dictionary as NSDictionary:
            return .object([("dict", .array(dictionary.map { .array([typed($0.key), typed($0.value)]) }))])
        default: return .object([("unsupported", .string("\(type(of: value))"))])
        }
    }

    /// Booleans come back as NSNumber with objCType "c"; reals "d" or "f"; the rest integers.
    private static func typed(_ number: NSNumber) -> JSONValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .object([("bool", .bool(number.boolValue))])
        case "d", "f": return .object([("real", .real(number.doubleValue))])
        case "Q": return .object([("int", .unsignedInteger(number.uint64Value))])
        default: return .object([("int", .integer(number.int64Value))])
        }
    }
}
