import KeyedArchive

/// Whether two graphs describe the same archive: same `$top` keys, same values, and the same
/// sharing (a bijection between their objects), whatever the object order.
struct GraphEquivalence {
    private let left: ObjectGraph
    private let right: ObjectGraph
    private var mapping: [Int: Int] = [:]
    private var reverse: [Int: Int] = [:]
    private var pending: [(Int, Int)] = []

    static func difference(_ left: ObjectGraph, _ right: ObjectGraph) -> String? {
        var checker = GraphEquivalence(left: left, right: right)
        return checker.run()
    }

    private init(left: ObjectGraph, right: ObjectGraph) {
        self.left = left
        self.right = right
    }

    private mutating func run() -> String? {
        guard left.top.map(\.key) == right.top.map(\.key) else { return "top keys \(left.top.map(\.key)) != \(right.top.map(\.key))" }
        for (a, b) in zip(left.top, right.top) {
            if let problem = values(a.value, b.value, "/top/\(a.key)") { return problem }
        }
        while let (a, b) = pending.popLast() {
            if let problem = objects(left.objects[a], right.objects[b], "object \(a)") { return problem }
        }
        return nil
    }

    private mutating func values(_ a: ArchiveValue, _ b: ArchiveValue, _ path: String) -> String? {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            if let mapped = mapping[x.index] { return mapped == y.index ? nil : "\(path): sharing differs" }
            guard reverse[y.index] == nil else { return "\(path): sharing differs" }
            mapping[x.index] = y.index
            reverse[y.index] = x.index
            pending.append((x.index, y.index))
            return nil
        case (.real(let x), .real(let y)):
            return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN) ? nil : "\(path): \(x) != \(y)"
        case (.inlineArray(let xs), .inlineArray(let ys)):
            return lists(xs, ys, path)
        default:
            return a == b ? nil : "\(path): \(a) != \(b)"
        }
    }

    private mutating func lists(_ xs: [ArchiveValue], _ ys: [ArchiveValue], _ path: String) -> String? {
        guard xs.count == ys.count else { return "\(path): \(xs.count) items != \(ys.count)" }
        for (index, (x, y)) in zip(xs, ys).enumerated() {
            if let problem = values(x, y, "\(path)/\(index)") { return problem }
        }
        return nil
    }

    private mutating func objects(_ a: ArchivedObject, _ b: ArchivedObject, _ path: String) -> String? {
        switch (a, b) {
        case (.array(let xs, let m1), .array(let ys, let m2)), (.set(let xs, let m1), .set(let ys, let m2)):
            return m1 == m2 ? lists(xs, ys, path) : "\(path): mutability differs"
        case (.orderedSet(let xs, let m1, let i1), .orderedSet(let ys, let m2, let i2)):
            return m1 == m2 && i1 == i2 ? lists(xs, ys, path) : "\(path): ordered set form differs"
        case (.dictionary(let xs, let m1), .dictionary(let ys, let m2)):
            guard m1 == m2 else { return "\(path): mutability differs" }
            return lists(xs.flatMap { [$0.key, $0.value] }, ys.flatMap { [$0.key, $0.value] }, path)
        case (.countedSet(let xs), .countedSet(let ys)):
            guard xs.map(\.count) == ys.map(\.count) else { return "\(path): counts differ" }
            return lists(xs.map(\.element), ys.map(\.element), path)
        case (.url(let base1, let rel1), .url(let base2, let rel2)):
            return rel1 == rel2 ? values(base1, base2, path + "/base") : "\(path): url differs"
        case (.generic(let c1, let f1), .generic(let c2, let f2)):
            guard c1 == c2, f1.map(\.key) == f2.map(\.key) else { return "\(path): class or field keys differ" }
            return lists(f1.map(\.value), f2.map(\.value), path)
        default:
            return a == b ? nil : "\(path): \(a) != \(b)"
        }
    }
}
