/// The fields Apple's archiver writes for each modelled class, with Apple's class chains.
enum ClassEncoding {
    static func chain(_ names: String...) -> ArchiveClass {
        ArchiveClass(name: names[0], chain: names + ["NSObject"])
    }

    static func archiveClass(of object: ArchivedObject) -> ArchiveClass {
        switch object {
        case .string(_, let mutable): mutable ? chain("NSMutableString", "NSString") : chain("NSString")
        case .data(_, let mutable): mutable ? chain("NSMutableData", "NSData") : chain("NSData")
        case .date: chain("NSDate")
        case .array(_, let mutable): mutable ? chain("NSMutableArray", "NSArray") : chain("NSArray")
        case .dictionary(_, let mutable): mutable ? chain("NSMutableDictionary", "NSDictionary") : chain("NSDictionary")
        case .set(_, let mutable): mutable ? chain("NSMutableSet", "NSSet") : chain("NSSet")
        case .orderedSet(_, let mutable, _): mutable ? chain("NSMutableOrderedSet", "NSOrderedSet") : chain("NSOrderedSet")
        case .countedSet: chain("NSCountedSet", "NSMutableSet", "NSSet")
        case .null: chain("NSNull")
        case .uuid: chain("NSUUID")
        case .url: chain("NSURL")
        case .generic(let archiveClass, _): archiveClass
        }
    }

    static func fields(of object: ArchivedObject, archiver: inout KeyedArchiver) throws(ArchiveError) -> [PlistEntry] {
        var entries = try contentFields(of: object, archiver: &archiver)
        entries.append(PlistEntry("$class", .uid(UInt64(archiver.classUID(archiveClass(of: object))))))
        return entries
    }

    private static func contentFields(of object: ArchivedObject, archiver: inout KeyedArchiver) throws(ArchiveError) -> [PlistEntry] {
        switch object {
        case .string(let text, _): return [PlistEntry("NS.string", .string(text))]
        case .data(let bytes, _): return [PlistEntry("NS.data", .data(bytes))]
        case .date(let seconds): return [PlistEntry("NS.time", .real(seconds))]
        case .array(let items, _), .set(let items, _): return [PlistEntry("NS.objects", try archiver.references(items))]
        case .dictionary(let pairs, _):
            let keys = try archiver.references(pairs.map(\.key))
            return [PlistEntry("NS.keys", keys), PlistEntry("NS.objects", try archiver.references(pairs.map(\.value)))]
        case .orderedSet(let items, _, let indexed):
            guard indexed else { return [PlistEntry("NS.objects", try archiver.references(items))] }
            var entries = [PlistEntry]()
            for (index, item) in items.enumerated() { entries.append(PlistEntry("NS.object.\(index)", try archiver.reference(item))) }
            return entries
        case .countedSet(let elements):
            var entries = [PlistEntry("NS.count", .integer(Int64(elements.count)))]
            for (index, element) in elements.enumerated() {
                entries.append(PlistEntry("NS.object\(index)", try archiver.reference(element.element)))
                entries.append(PlistEntry("NS.count\(index)", .integer(element.count)))
            }
            return entries
        case .null: return []
        case .uuid(let bytes): return [PlistEntry("NS.uuidbytes", .data(bytes))]
        case .url(let base, let relative):
            return [PlistEntry("NS.base", try archiver.reference(base)), PlistEntry("NS.relative", try archiver.reference(.string(relative)))]
        case .generic(_, let fields):
            var entries = [PlistEntry]()
            for field in fields { entries.append(PlistEntry(field.key, try genericFieldValue(field.value, archiver: &archiver))) }
            return entries
        }
    }

    /// Numbers and booleans go straight into the field, as `encodeInteger:forKey:` and its
    /// siblings write them; strings, data and objects go by UID, as `encodeObject:forKey:`.
    private static func genericFieldValue(_ value: ArchiveValue, archiver: inout KeyedArchiver) throws(ArchiveError) -> PlistValue {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .integer(number)
        case .unsignedInteger(let number): return .unsignedInteger(number)
        case .real(let number): return .real(number)
        case .inlineArray(let items):
            var values = [PlistValue]()
            for item in items { values.append(try genericFieldValue(item, archiver: &archiver)) }
            return .array(values)
        case .null, .string, .data, .object: return try archiver.reference(value)
        }
    }
}
