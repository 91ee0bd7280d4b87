/// Decodes the fields of the classes the codec models. Objects are matched by exact
/// `$classname` (a subclass such as PyObjC's dictionary gets the generic form), and a known
/// class whose fields are wrong is an error naming the UID and the key.
enum ClassDecoding {
    static func decode(_ archiveClass: ArchiveClass, from reader: ObjectFieldReader,
                       unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> ArchivedObject {
        let name = archiveClass.name
        switch name {
        case "NSString", "NSMutableString":
            return .string(try string(reader, "NS.string", &unarchiver), mutable: name == "NSMutableString")
        case "NSData", "NSMutableData":
            return .data(try data(reader, "NS.data", &unarchiver), mutable: name == "NSMutableData")
        case "NSDate": return .date(try number(reader, "NS.time"))
        case "NSArray", "NSMutableArray":
            return .array(try elements(reader, "NS.objects", &unarchiver), mutable: name == "NSMutableArray")
        case "NSSet", "NSMutableSet":
            return .set(try elements(reader, "NS.objects", &unarchiver), mutable: name == "NSMutableSet")
        case "NSDictionary", "NSMutableDictionary":
            return .dictionary(try pairs(reader, &unarchiver), mutable: name == "NSMutableDictionary")
        case "NSOrderedSet", "NSMutableOrderedSet": return try orderedSet(reader, mutable: name == "NSMutableOrderedSet", &unarchiver)
        case "NSCountedSet": return .countedSet(try countedElements(reader, &unarchiver))
        case "NSNull": return .null
        case "NSUUID":
            let bytes = try data(reader, "NS.uuidbytes", &unarchiver)
            guard bytes.count == 16 else { throw reader.error("NS.uuidbytes", "\(bytes.count) bytes, expected 16") }
            return .uuid(bytes)
        case "NSURL": return try url(reader, &unarchiver)
        default: return .generic(archiveClass, fields: try genericFields(reader, &unarchiver))
        }
    }

    private static func value(_ reader: ObjectFieldReader, _ key: String, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> ArchiveValue? {
        guard let raw = reader.raw(key) else { return nil }
        return try unarchiver.fieldValue(raw, owner: "object UID \(reader.uid)", key: key)
    }

    private static func string(_ reader: ObjectFieldReader, _ key: String, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> String {
        guard case .string(let text)? = try value(reader, key, &unarchiver) else { throw reader.error(key, "missing or not a string") }
        return text
    }

    private static func data(_ reader: ObjectFieldReader, _ key: String, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> [UInt8] {
        guard case .data(let bytes)? = try value(reader, key, &unarchiver) else { throw reader.error(key, "missing or not data") }
        return bytes
    }

    private static func number(_ reader: ObjectFieldReader, _ key: String) throws(ArchiveError) -> Double {
        switch reader.raw(key) {
        case .real(let number)?: return number
        case .integer(let number)?: return Double(number)
        default: throw reader.error(key, "missing or not a number")
        }
    }

    private static func elements(_ reader: ObjectFieldReader, _ key: String, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> [ArchiveValue] {
        switch try value(reader, key, &unarchiver) {
        case .inlineArray(let items)?: return items
        case nil: return []
        default: throw reader.error(key, "not an array")
        }
    }

    private static func pairs(_ reader: ObjectFieldReader, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> [ArchivePair] {
        let keys = try elements(reader, "NS.keys", &unarchiver)
        let values = try elements(reader, "NS.objects", &unarchiver)
        guard keys.count == values.count else {
            throw reader.error("NS.keys", "\(keys.count) keys but \(values.count) objects")
        }
        return zip(keys, values).map { ArchivePair(key: $0, value: $1) }
    }

    private static func orderedSet(_ reader: ObjectFieldReader, mutable: Bool, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> ArchivedObject {
        if reader.raw("NS.objects") != nil {
            return .orderedSet(try elements(reader, "NS.objects", &unarchiver), mutable: mutable, indexedKeys: false)
        }
        // macOS 10.14 writes NS.object.0, NS.object.1, ...; there are at most as many as fields.
        var items = [ArchiveValue]()
        while items.count < reader.entries.count, let item = try value(reader, "NS.object.\(items.count)", &unarchiver) {
            items.append(item)
        }
        return .orderedSet(items, mutable: mutable, indexedKeys: true)
    }

    private static func countedElements(_ reader: ObjectFieldReader, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> [CountedElement] {
        guard case .integer(let count)? = reader.raw("NS.count"), count >= 0, count <= Int64(reader.entries.count) else {
            throw reader.error("NS.count", "missing, negative, or larger than the object's field count")
        }
        var result = [CountedElement]()
        for index in 0..<Int(count) {
            guard let element = try value(reader, "NS.object\(index)", &unarchiver) else { throw reader.error("NS.object\(index)", "missing") }
            guard case .integer(let times)? = reader.raw("NS.count\(index)") else { throw reader.error("NS.count\(index)", "missing or not an integer") }
            result.append(CountedElement(element: element, count: times))
        }
        return result
    }

    private static func url(_ reader: ObjectFieldReader, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> ArchivedObject {
        let base = try value(reader, "NS.base", &unarchiver) ?? .null
        switch base {
        case .null, .object: break
        default: throw reader.error("NS.base", "not nil or an NSURL")
        }
        return .url(base: base, relative: try string(reader, "NS.relative", &unarchiver))
    }

    private static func genericFields(_ reader: ObjectFieldReader, _ unarchiver: inout KeyedUnarchiver) throws(ArchiveError) -> [ArchiveField] {
        var fields = [ArchiveField]()
        for entry in reader.entries {
            guard case .string(let key) = entry.key else { throw .invalid("object UID \(reader.uid) has a \(entry.key.kindName) key") }
            if key == "$class" { continue }
            fields.append(ArchiveField(key: key, value: try unarchiver.fieldValue(entry.value, owner: "object UID \(reader.uid)", key: key)))
        }
        return fields.sorted { $0.key < $1.key }
    }
}
