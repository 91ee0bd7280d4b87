import KeyedArchive
import Testing

/// The fixture comparison must be able to fail: it tells `1` from `1.0` and `true`, and is
/// lenient only where the convention says so (set order, dates within 1e-6 s).
@Suite struct JSONMatchingTests {
    static func differs(_ expected: String, _ actual: String) throws -> Bool {
        JSONMatching.difference(try JSONParser.parse(expected), try JSONParser.parse(actual)) != nil
    }

    @Test(arguments: [("1", "1.0"), ("1", "true"), ("0.0", "0"), ("[1, 2]", "[2, 1]"), ("{\"a\": 1}", "{\"a\": 1, \"b\": 2}"),
                      ("{\"$date\": 1.0, \"$iso\": \"x\"}", "{\"$date\": 1.00001, \"$iso\": \"x\"}"), ("null", "{\"$nsnull\": true}")])
    func differencesAreFound(expected: String, actual: String) throws {
        #expect(try Self.differs(expected, actual))
    }

    @Test(arguments: [("{\"$set\": [1, \"a\"]}", "{\"$set\": [\"a\", 1]}"), ("{\"$countedSet\": [[1, 2], [3, 4]]}", "{\"$countedSet\": [[3, 4], [1, 2]]}"),
                      ("{\"$date\": 1.0, \"$iso\": \"x\"}", "{\"$date\": 1.0000005, \"$iso\": \"x\"}"), ("{\"a\": 1, \"b\": 2}", "{\"b\": 2, \"a\": 1}")])
    func allowedVariationsMatch(expected: String, actual: String) throws {
        #expect(try !Self.differs(expected, actual))
    }
}
