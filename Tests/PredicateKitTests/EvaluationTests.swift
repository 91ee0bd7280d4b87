import Testing
import PredicateKit

/// Evaluation semantics beyond the fixture: folding, errors, collections, key paths.
@Suite struct EvaluationTests {
    static let item: PredicateValue = [
        "name": "Crème Brûlée.TXT", "size": 1500, "ratio": 0.75, "tags": ["Work", "urgent"],
        "owner": ["name": "Ana", "age": 41], "modified": .date(700_000_000), "flag": true, "nothing": nil,
        "children": [["age": 3], ["age": 15]],
    ]

    @Test(arguments: [
        ("name ==[cd] 'creme brulee.txt'", true), ("name ==[c] 'crème brûlée.txt'", true), ("name ==[c] 'creme brulee.txt'", false),
        ("name ==[d] 'Creme Brulee.TXT'", true), ("name LIKE[cd] 'creme*.txt'", true), ("name LIKE 'Cr?me*'", true),
        ("name BEGINSWITH[cd] 'CREME'", true), ("name ENDSWITH '.txt'", false), ("name CONTAINS[d] 'Brule'", true),
        ("name MATCHES[c] 'crème.*txt'", true), ("name MATCHES 'Crème'", false),
        ("size > 1000 AND size < 2000", true), ("size BETWEEN {1000, 1500}", true), ("ratio * 2 == 1.5", true),
        ("ANY tags ==[c] 'work'", true), ("ALL tags ==[c] 'work'", false), ("NONE tags == 'x'", true), ("tags CONTAINS 'urgent'", true),
        ("'urgent' IN tags", true), ("owner.name == 'Ana'", true), ("owner.age >= 41", true), ("missing.deep.key == nil", true),
        ("nothing == nil", true), ("modified > CAST(600000000, 'NSDate')", true), ("flag == YES", true), ("flag == 1", true),
        ("tags.@count == 2", true), ("children.@max.age == 15", true), ("children.@sum.age == 18", true), ("children.@avg.age == 9", true),
        ("SUBQUERY(children, $c, $c.age > 10).@count == 1", true), ("tags[LAST] == 'urgent'", true),
        ("name CONTAINS ''", false), ("size IN {1, 1500}", true), ("7 / 2 == 3", true), ("7.0 / 2 == 3.5", true),
    ])
    func evaluatesLikeFoundation(_ format: String, _ expected: Bool) throws {
        #expect(try Predicate(format: format).evaluate(with: Self.item) == expected)
    }

    @Test(arguments: [
        "name < 5", "size BETWEEN {1}", "size BETWEEN 3", "name BEGINSWITH 5", "ANY size > 1", "$undefined == 1",
        "name MATCHES '('", "tags[5] == 1", "size / 0 == 1", "FUNCTION(name, 'noSuchMethod') == 1", "name.nosuchkey == 1",
    ])
    func raisesWhereFoundationRaises(_ format: String) throws {
        let predicate = try Predicate(format: format)
        #expect(throws: PredicateEvaluationError.self) { try predicate.evaluate(with: Self.item) }
    }

    @Test func foldingIsUnicodeCorrect() {
        #expect(PredicateFolding.fold("Ünïcödé", caseInsensitive: true, diacriticInsensitive: true) == "unicode")
        #expect(PredicateFolding.fold("e\u{301}", caseInsensitive: false, diacriticInsensitive: false) == "e\u{301}")
        #expect(PredicateFolding.fold("E\u{301}", caseInsensitive: true, diacriticInsensitive: false) == "\u{E9}")
        #expect(PredicateFolding.fold("ÅNGSTRÖM", caseInsensitive: true, diacriticInsensitive: true) == "angstrom")
        #expect(PredicateFolding.fold("İstanbul", caseInsensitive: true, diacriticInsensitive: true) == "istanbul")
        #expect(PredicateFolding.fold("ΣΟΦΊΑ", caseInsensitive: true, diacriticInsensitive: true) == "σοφια")
    }

    @Test(arguments: ["Crème", "ÉCOLE", "naïve", "İI", "ǅemal", "ﬃ", "Ωmega", "e\u{301}\u{323}"])
    func cdFoldingIsCoarserThanCaseOrDiacriticFoldingAlone(_ text: String) {
        let cd = PredicateFolding.fold(text, caseInsensitive: true, diacriticInsensitive: true)
        let viaCase = PredicateFolding.fold(PredicateFolding.fold(text, caseInsensitive: true, diacriticInsensitive: false),
                                            caseInsensitive: true, diacriticInsensitive: true)
        let viaDiacritics = PredicateFolding.fold(PredicateFolding.fold(text, caseInsensitive: false, diacriticInsensitive: true),
                                                  caseInsensitive: true, diacriticInsensitive: true)
        #expect(viaCase == cd)
        #expect(viaDiacritics == cd)
    }

    @Test func substitutingReplacesVariablesButKeepsSubqueryVariables() throws {
        let predicate = try Predicate(format: "name == $NAME AND SUBQUERY(tags, $t, $t == $TAG).@count > 0")
        let substituted = try predicate.substituting(["NAME": "x", "TAG": "urgent"])
        #expect(substituted.description == "name == \"x\" AND SUBQUERY(tags, $t, $t == \"urgent\").@count > 0")
        #expect(throws: PredicateEvaluationError.self) { try predicate.substituting(["NAME": "x"]) }
    }

    @Test func mapKeyPathsRenamesAndKeyPathsListsEveryKey() throws {
        let predicate = try Predicate(format: "NSMetadataItemFSNameKey LIKE '*.txt' OR (size > 3 AND owner.name == 'a')")
        let renamed = predicate.mapKeyPaths { $0 == "NSMetadataItemFSNameKey" ? "kMDItemFSName" : $0 }
        #expect(renamed.description == "kMDItemFSName LIKE \"*.txt\" OR size > 3 AND owner.name == \"a\"")
        #expect(renamed.keyPaths == ["kMDItemFSName", "size", "owner.name"])
    }

    @Test func jsonReaderFollowsTheConvention() throws {
        let value = try PredicateJSON.value(fromJSON: #"{"d": {"$date": 5}, "s": {"$set": [1, 2.5, true]}, "n": null, "e": 1e2, "u": "\u00e9\ud83d\ude00"}"#)
        #expect(value == ["d": .date(5), "s": .set([1, 2.5, true]), "n": nil, "e": 100.0, "u": "é😀"])
        #expect(throws: (any Error).self) { try PredicateJSON.value(fromJSON: "{\"a\": }") }
        #expect(throws: (any Error).self) { try PredicateJSON.value(fromJSON: String(repeating: "[", count: 100_000)) }
    }
}
