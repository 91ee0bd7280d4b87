import KeyedArchive

/// Structural comparison of `nska-json-v1` values: `$date` within 1e-6 s, `$set` and
/// `$countedSet` without regard to order, integers never equal to reals.
enum JSONMatching {
    /// nil if `actual` matches `expected`, else the first path that differs and why.
    static func difference(_ expected: JSONValue, _ actual: JSONValue, path: String = "") -> String? {
        switch (expected, actual) {
        case (.object(let wanted), .object(let got)):
            if let seconds = expected["$date"], let other = actual["$date"] { return dateDifference(seconds, other, path: path) }
            if let items = expected["$set"], let other = actual["$set"] { return unorderedDifference(items, other, path: path + "/$set") }
            if let items = expected["$countedSet"], let other = actual["$countedSet"] {
                return unorderedDifference(items, other, path: path + "/$countedSet")
            }
            let wantedKeys = Set(wanted.map(\.0)), gotKeys = Set(got.map(\.0))
            guard wantedKeys == gotKeys else { return "\(path): keys \(wantedKeys.sorted()) != \(gotKeys.sorted())" }
            for (key, value) in wanted {
                if let problem = difference(value, actual[key] ?? .null, path: path + "/" + key) { return problem }
            }
            return nil
        case (.array(let wanted), .array(let got)):
            guard wanted.count == got.count else { return "\(path): \(wanted.count) items != \(got.count)" }
            for (index, pair) in zip(wanted, got).enumerated() {
                if let problem = difference(pair.0, pair.1, path: path + "/\(index)") { return problem }
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): \(expected.serialized(indent: 0)) != \(actual.serialized(indent: 0))"
        }
    }

    private static func dateDifference(_ expected: JSONValue, _ actual: JSONValue, path: String) -> String? {
        guard case .real(let wanted) = expected, case .real(let got) = actual else {
            return expected == actual ? nil : "\(path)/$date: \(expected) != \(actual)"
        }
        return abs(wanted - got) <= 1e-6 ? nil : "\(path)/$date: \(wanted) != \(got)"
    }

    private static func unorderedDifference(_ expected: JSONValue, _ actual: JSONValue, path: String) -> String? {
        guard case .array(let wanted) = expected, case .array(var remaining) = actual, wanted.count == remaining.count else {
            return "\(path): \(expected.serialized(indent: 0)) != \(actual.serialized(indent: 0))"
        }
        for item in wanted {
            guard let match = remaining.firstIndex(where: { difference(item, $0) == nil }) else {
                return "\(path): no match for \(item.serialized(indent: 0))"
            }
            remaining.remove(at: match)
        }
        return nil
    }
}
