import KeyedArchive

/// A small deterministic generator (SplitMix64), so every random test is reproducible from
/// its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Random object graphs for round-trip and interoperability tests.
struct RandomGraph {
    struct Options {
        /// Objects may be referenced from several places.
        var sharing = true
        /// Containers may contain themselves (directly or not).
        var cycles = true
        /// Use every modelled class (else only what bpylist2 and nskeyedunarchiver know).
        var allClasses = true
    }

    private var random: SeededGenerator
    private let options: Options
    private var graph = ObjectGraph()
    private var containers: [ObjectRef] = []

    static func make(seed: UInt64, options: Options = Options()) -> ObjectGraph {
        var builder = RandomGraph(random: SeededGenerator(seed: seed), options: options)
        let root = builder.value(depth: 0, container: true)
        builder.graph.top = [(key: "root", value: root)]
        return builder.graph
    }

    private init(random: SeededGenerator, options: Options) {
        self.random = random
        self.options = options
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func scalar() -> ArchiveValue {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return .bool(chance(50))
        case 1: return .integer(Int64.random(in: -3...3, using: &random))
        case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &random))
        case 3: return .real([0.0, -0.0, 1.0, 1.5, -2.25e300, 3.14159][Int.random(in: 0..<6, using: &random)])
        case 4: return .string(["", "a", "baa", "$x", "NS.objects", "ß日本", "emoji 🎉", "long " + String(repeating: "x", count: 40)][Int.random(in: 0..<8, using: &random)])
        case 5: return .data((0..<Int.random(in: 0..<20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 6: return graph.add(.date(Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &random)) + 0.5))
        case 7: return .integer(Int64([0, 1, 255, 256, 65_535, 65_536, 4_294_967_296, 36_079_294_411_123][Int.random(in: 0..<8, using: &random)]))
        default: return .real(Double(Int.random(in: 0..<1000, using: &random)) / 8)
        }
    }

    /// Set elements are strings or integers, which every reader can hash.
    private mutating func hashable(_ index: Int) -> ArchiveValue {
        chance(50) ? .string("e\(index)") : .integer(Int64(index))
    }

    private mutating func value(depth: Int, container: Bool = false) -> ArchiveValue {
        if options.sharing, !containers.isEmpty, chance(10) {
            let ref = containers[Int.random(in: 0..<containers.count, using: &random)]
            if options.cycles || !isAncestor(ref) { return .object(ref) }
        }
        guard container || (depth < 4 && chance(35)) else { return scalar() }
        let ref = graph.reserve()
        containers.append(ref)
        ancestors.append(ref)
        defer { ancestors.removeLast() }
        graph[ref] = object(depth: depth)
        return .object(ref)
    }

    private var ancestors: [ObjectRef] = []

    private func isAncestor(_ ref: ObjectRef) -> Bool { ancestors.contains(ref) }

    private mutating func object(depth: Int) -> ArchivedObject {
        let count = Int.random(in: 0..<6, using: &random)
        let kinds = options.allClasses ? 9 : 3
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .array((0..<count).map { _ in value(depth: depth + 1) }, mutable: chance(50))
        case 1:
            let pairs = (0..<count).map { index in ArchivePair(key: .string("k\(index)"), value: value(depth: depth + 1)) }
            return .dictionary(pairs, mutable: chance(50))
        case 2: return .set((0..<count).map { hashable($0) }, mutable: chance(50))
        case 3: return .orderedSet((0..<count).map { _ in value(depth: depth + 1) }, mutable: chance(50), indexedKeys: chance(50))
        case 4: return .countedSet((0..<count).map { CountedElement(element: hashable($0), count: Int64($0 + 1)) })
        case 5: return chance(50) ? .null : .uuid((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 6: return .string("mutable \(count)", mutable: true)
        case 7: return .dictionary([ArchivePair(key: .integer(Int64(count)), value: value(depth: depth + 1))], mutable: false)
        default:
            let fields = (0..<count).map { index in ArchiveField(key: index == 0 ? "$$escaped" : "f\(index)", value: value(depth: depth + 1)) }
            return .generic(ArchiveClass(name: "Custom\(count)", superclasses: ["NSObject"]), fields: fields)
        }
    }
}
