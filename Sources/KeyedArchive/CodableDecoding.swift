/// The Codable bridge, decoding side: archive values back into `Decodable` types. A keyed
/// container reads an `NSDictionary` with string keys or the fields of a named class; an
/// unkeyed one reads `NSArray`, `NSSet` or `NSOrderedSet`. Types are kept strict: a `Bool`
/// is not read from an integer, nor an `Int` from a real.
public struct ArchiveDecoder {
    public var maxDepth: Int

    public init(maxDepth: Int = 256) {
        self.maxDepth = maxDepth
    }

    public func decode<T: Decodable>(_ type: T.Type, from value: ArchiveValue, in graph: ObjectGraph) throws(ArchiveError) -> T {
        let context = DecodingContext(graph: graph, maxDepth: maxDepth)
        do {
            return try context.decode(type, from: value, codingPath: [])
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(.unsupportedValue, "decoding \(T.self) failed: \(error)")
        }
    }
}

struct DecodingContext {
    let graph: ObjectGraph
    let maxDepth: Int
    let types = FoundationTypes()

    static func pathText(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top value" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    func mismatch(_ expected: String, _ value: ArchiveValue, _ codingPath: [any CodingKey]) -> ArchiveError {
        ArchiveError(.unsupportedValue, "at \(Self.pathText(codingPath)): expected \(expected), found \(describe(value))")
    }

    func describe(_ value: ArchiveValue) -> String {
        switch value {
        case .object(let ref): "an object of class \(ClassEncoding.archiveClass(of: graph[ref]).name)"
        default: "\(value)"
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from value: ArchiveValue, codingPath: [any CodingKey]) throws -> T {
        guard codingPath.count < maxDepth else {
            throw ArchiveError(.limitExceeded, "at \(Self.pathText(codingPath)): nesting deeper than \(maxDepth) (a cycle?)")
        }
        switch types.kind(of: type) {
        case .primitive:
            if let primitive = try primitive(type, value, codingPath) { return primitive }
        case .referenceDate:
            if let seconds = dateSeconds(value), let date = ReferenceDate(secondsSince2001: seconds) as? T { return date }
        case .date:
            if let seconds = dateSeconds(value) {
                return try T(from: NodeDecoder(context: self, value: .real(seconds), codingPath: codingPath))
            }
        case .data:
            if case .data(let bytes) = resolved(value) {
                return try T(from: NodeDecoder(context: self, value: .inlineArray(bytes.map { .integer(Int64($0)) }), codingPath: codingPath))
            }
        case .other: break
        }
        return try T(from: NodeDecoder(context: self, value: value, codingPath: codingPath))
    }

    /// NSString and NSData objects read like inline strings and data.
    func resolved(_ value: ArchiveValue) -> ArchiveValue {
        guard case .object(let ref) = value, graph.objects.indices.contains(ref.index) else { return value }
        switch graph[ref] {
        case .string(let text, _): return .string(text)
        case .data(let bytes, _): return .data(bytes)
        default: return value
        }
    }

    func dateSeconds(_ value: ArchiveValue) -> Double? {
        guard case .object(let ref) = value, graph.objects.indices.contains(ref.index), case .date(let seconds) = graph[ref] else { return nil }
        return seconds
    }

    /// Primitives are decoded here, strictly by type; nil if `T` is not a primitive.
    func primitive<T>(_ type: T.Type, _ value: ArchiveValue, _ codingPath: [any CodingKey]) throws -> T? {
        let value = resolved(value)
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("a string", value, codingPath) }
            return text as? T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("a boolean", value, codingPath) }
            return flag as? T
        case is Double.Type, is Float.Type:
            let number: Double
            switch value {
            case .real(let real): number = real
            case .integer(let integer): number = Double(integer)
            default: throw mismatch("a real number", value, codingPath)
            }
            return (type == Float.self ? Float(number) as Any : number as Any) as? T
        default:
            guard let integerType = type as? any FixedWidthInteger.Type else { return nil }
            return try integer(integerType, value, codingPath) as? T
        }
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: ArchiveValue, _ codingPath: [any CodingKey]) throws -> I {
        let result: I?
        switch value {
        case .integer(let number): result = I(exactly: number)
        case .unsignedInteger(let number): result = I(exactly: number)
        default: throw mismatch("an integer", value, codingPath)
        }
        guard let number = result else { throw mismatch("an integer that fits \(I.self)", value, codingPath) }
        return number
    }
}
