import KeyedArchive
import Testing

/// The archives we write have Apple's layout: `$null` first, class chains ending in
/// `NSObject`, mutable classes with their wrappers, values stored once.
@Suite struct ArchiveLayoutTests {
    static func archivePlist(_ build: (inout ObjectGraph) -> ArchiveValue) throws -> PlistValue {
        var graph = ObjectGraph()
        graph.top = [(key: "root", value: build(&graph))]
        return try PropertyList.decode(try KeyedArchiver.encode(graph))
    }

    static func objects(_ plist: PlistValue) -> [PlistValue] {
        guard case .array(let objects)? = plist["$objects"] else { return [] }
        return objects
    }

    @Test func envelopeIsApples() throws {
        let plist = try Self.archivePlist { $0.add(.array([], mutable: false)) }
        #expect(plist["$archiver"] == .string("NSKeyedArchiver"))
        #expect(plist["$version"] == .integer(100_000))
        #expect(plist["$top"] == .dictionary([PlistEntry("root", .uid(1))]))
        #expect(Self.objects(plist).first == .string("$null"))
    }

    @Test(arguments: [
        (ArchivedObject.array([], mutable: true), ["NSMutableArray", "NSArray", "NSObject"]),
        (.dictionary([], mutable: true), ["NSMutableDictionary", "NSDictionary", "NSObject"]),
        (.set([], mutable: false), ["NSSet", "NSObject"]),
        (.string("s", mutable: true), ["NSMutableString", "NSString", "NSObject"]),
        (.data([1], mutable: true), ["NSMutableData", "NSData", "NSObject"]),
        (.countedSet([]), ["NSCountedSet", "NSMutableSet", "NSSet", "NSObject"]),
        (.generic(ArchiveClass(name: "DiaryEntry"), fields: []), ["DiaryEntry", "NSObject"]),
    ])
    func classChainsEndInNSObject(object: ArchivedObject, chain: [String]) throws {
        let plist = try Self.archivePlist { $0.add(object) }
        let classRecord = Self.objects(plist).last
        #expect(classRecord?["$classes"] == .array(chain.map(PlistValue.string)))
        #expect(classRecord?["$classname"] == .string(chain[0]))
    }

    @Test func mutableStringAndDataKeepApplesWrappers() throws {
        let plist = try Self.archivePlist { graph in
            let text = graph.add(.string("hello", mutable: true))
            let bytes = graph.add(.data([1, 2], mutable: true))
            return graph.add(.array([text, bytes], mutable: false))
        }
        let objects = Self.objects(plist)
        #expect(objects.contains { $0["NS.string"] == .string("hello") })
        #expect(objects.contains { $0["NS.data"] == .data([1, 2]) })
    }

    @Test func sharedObjectsStringsAndClassesAreStoredOnce() throws {
        let plist = try Self.archivePlist { graph in
            let shared = graph.add(.array([.string("baa"), .string("baa")], mutable: false))
            return graph.add(.array([shared, shared, .string("baa"), .integer(1), .bool(true), .real(1)], mutable: false))
        }
        let objects = Self.objects(plist)
        #expect(objects.filter { $0 == .string("baa") }.count == 1)
        #expect(objects.filter { $0["$classname"] == .string("NSArray") }.count == 1)
        #expect(objects.contains(.integer(1)) && objects.contains(.bool(true)) && objects.contains(.real(1)))
        #expect(objects.count == 1 + 2 + 1 + 1 + 3) // $null, two arrays, class, "baa", three numbers
    }

    @Test func cyclesAreArchivedAsBackReferences() throws {
        var graph = ObjectGraph()
        let ref = graph.reserve()
        graph[ref] = .array([.object(ref)], mutable: true)
        graph.top = [(key: "root", value: .object(ref))]
        let decoded = try KeyedUnarchiver.decode(try KeyedArchiver.encode(graph))
        guard case .object(let root)? = decoded.topValue("root"), case .array(let items, true) = decoded[root] else {
            Issue.record("root is not a mutable array")
            return
        }
        #expect(items == [.object(root)])
    }
}
