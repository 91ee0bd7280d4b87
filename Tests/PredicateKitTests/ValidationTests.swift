import Testing
import PredicateKit

/// Validation by context: each broken rule is named.
@Suite struct ValidationTests {
    static let metadata = PredicateContext.metadataQuery(attributes: ["kMDItemFSName", "kMDItemFSSize", "kMDItemContentTypeTree"])
    static let cloudKit = PredicateContext.cloudKit(fields: [
        "title": .string, "rating": .int64, "created": .date, "tags": .list(.string), "place": .location,
    ])

    @Test(arguments: [
        ("kMDItemFSName LIKE[cd] '*.txt' AND kMDItemFSSize > 10", nil),
        ("ANY kMDItemContentTypeTree == 'public.text' OR NOT kMDItemFSSize < 3", nil),
        ("kMDItemFSName MATCHES 'a.*'", "metadata.no-matches"),
        ("colour == 'red'", "metadata.attribute"),
        ("SUBQUERY(kMDItemContentTypeTree, $t, $t == 'x').@count > 0", "metadata.no-subquery"),
        ("FUNCTION(kMDItemFSName, 'lastPathComponent') == 'a'", "metadata.no-function"),
    ] as [(String, String?)])
    func metadataQueryRules(_ format: String, _ brokenRule: String?) throws {
        try Self.check(format, Self.metadata, brokenRule)
    }

    /// A name close to a known attribute gets a hint; one close to none, only the list.
    @Test(arguments: [
        ("kMDItemContentModificationDate > now()", "kMDItemFSContentChangeDate"),
        ("kmditemfsname == 'a'", "kMDItemFSName"),
        ("FSSize > 1", "kMDItemFSSize"), ("kMDItemLogicalSize > 1", "kMDItemFSSize"), ("colour == 'red'", nil),
    ] as [(String, String?)])
    func anUnknownAttributeIsRefusedWithTheOneItMeant(_ format: String, _ meant: String?) throws {
        let context = PredicateContext.metadataQuery(attributes: ["kMDItemFSName", "kMDItemFSSize", "kMDItemFSContentChangeDate"])
        let error = try #require(throws: PredicateValidationError.self) { try Predicate(format: format).validate(for: context) }
        #expect(error.rule == "metadata.attribute")
        #expect(error.message.contains("did you mean") == (meant != nil), "\(error.message)")
        if let meant { #expect(error.message.contains("did you mean '\(meant)'?"), "\(error.message)") }
        #expect(error.message.hasSuffix("known: kMDItemFSContentChangeDate, kMDItemFSName, kMDItemFSSize"), "\(error.message)")
    }

    @Test(arguments: [
        ("title == 'Hello' AND rating > 3 AND created < CAST(0, 'NSDate')", nil),
        ("title BEGINSWITH 'He'", nil), ("tags CONTAINS 'x'", nil), ("ANY tags == 'x'", nil), ("'x' IN tags", nil),
        ("self CONTAINS 'token'", nil), ("rating IN {1, 2}", nil), ("NOT (rating IN {1, 2})", nil),
        ("distanceToLocation:fromLocation:(place, $here) < 1000", nil), ("rating BETWEEN {1, 5}", nil),
        ("title == 'a' OR rating > 1", "cloudkit.no-or"),
        ("title BEGINSWITH[c] 'he'", "cloudkit.beginswith-no-modifiers"),
        ("title ==[c] 'he'", "cloudkit.no-modifiers"),
        ("title ENDSWITH 'x'", "cloudkit.operator"),
        ("title CONTAINS 'x'", "cloudkit.contains-list"),
        ("ALL tags == 'x'", "cloudkit.no-all-none"),
        ("NOT (title == 'a' AND rating > 1)", "cloudkit.not-scope"),
        ("place == 'x'", "cloudkit.location-distance"),
        ("colour == 'red'", "cloudkit.field"),
        ("rating > rating + 1", "cloudkit.constant-right"),
        ("ANY title == 'x'", "cloudkit.any-list"),
        ("self == 'x'", "cloudkit.token-search"),
    ] as [(String, String?)])
    func cloudKitRules(_ format: String, _ brokenRule: String?) throws {
        try Self.check(format, Self.cloudKit, brokenRule)
    }

    static func check(_ format: String, _ context: PredicateContext, _ brokenRule: String?) throws {
        let predicate = try Predicate(format: format)
        do {
            try predicate.validate(for: context)
            #expect(brokenRule == nil, "expected rule \(brokenRule ?? "") to be broken")
        } catch {
            #expect(error.rule == brokenRule, "\(error)")
        }
    }
}
