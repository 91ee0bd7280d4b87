import Testing
import PredicateKit

/// Golden SQL: the exact WHERE clause, arguments and residual for representative
/// predicates against the index schema.
@Suite struct SQLGoldenTests {
    struct Golden: Sendable, CustomTestStringConvertible {
        var predicate: String
        var sql: String
        var arguments: [SQLValue]
        /// The canonical residual, nil when the SQL is exact.
        var residual: String? = nil
        var testDescription: String { predicate }
    }

    static let goldens: [Golden] = [
        Golden(predicate: "kMDItemFSName == 'a.txt'", sql: "items.fs_name = ?", arguments: [.text("a.txt")]),
        Golden(predicate: "kMDItemFSName ==[cd] 'Résumé.TXT'", sql: "items.fs_name_fold = ?", arguments: [.text("resume.txt")]),
        Golden(predicate: "kMDItemFSName ==[c] 'A.txt'", sql: "items.fs_name_fold = ?", arguments: [.text("a.txt")],
               residual: "kMDItemFSName ==[c] \"A.txt\""),
        Golden(predicate: "kMDItemFSName BEGINSWITH 'a*b'", sql: "items.fs_name GLOB ?", arguments: [.text("a[*]b*")]),
        Golden(predicate: "kMDItemFSName ENDSWITH 'x[1]?'", sql: "items.fs_name GLOB ?", arguments: [.text("*x[[]1][?]")]),
        Golden(predicate: "kMDItemFSName LIKE[cd] '*.TXT'", sql: "items.fs_name_fold GLOB ?", arguments: [.text("*.txt")]),
        Golden(predicate: "kMDItemFSName LIKE 'a\\\\*?'", sql: "items.fs_name GLOB ?", arguments: [.text("a[*]?")]),
        Golden(predicate: "kMDItemFSName ENDSWITH[d] '.txt'", sql: "items.fs_name_fold GLOB ?", arguments: [.text("*.txt")],
               residual: "kMDItemFSName ENDSWITH[d] \".txt\""),
        Golden(predicate: "kMDItemFSName CONTAINS ''", sql: "0", arguments: []),
        Golden(predicate: "kMDItemFSSize > 1000 AND kMDItemFSName CONTAINS '50%_off'",
               sql: "(items.size > ?) AND (items.fs_name GLOB ?)", arguments: [.integer(1000), .text("*50%_off*")]),
        Golden(predicate: "kMDItemFSName MATCHES '.*[.]txt' AND kMDItemFSSize >= 10", sql: "items.size >= ?",
               arguments: [.integer(10)], residual: "kMDItemFSName MATCHES \".*[.]txt\""),
        Golden(predicate: "kMDItemFSName MATCHES 'x.*' OR kMDItemFSSize < 10", sql: "1", arguments: [],
               residual: "kMDItemFSName MATCHES \"x.*\" OR kMDItemFSSize < 10"),
        Golden(predicate: "kMDItemFSName ==[c] 'x' OR kMDItemFSSize < 10", sql: "(items.fs_name_fold = ?) OR (items.size < ?)",
               arguments: [.text("x"), .integer(10)], residual: "kMDItemFSName ==[c] \"x\" OR kMDItemFSSize < 10"),
        Golden(predicate: "NOT kMDItemFSName ==[c] 'x'", sql: "1", arguments: [], residual: "NOT kMDItemFSName ==[c] \"x\""),
        Golden(predicate: "NOT kMDItemFSName == 'x'", sql: "NOT IFNULL((items.fs_name = ?), 0)", arguments: [.text("x")]),
        Golden(predicate: "kMDItemFSName != 'x'", sql: "items.fs_name IS NOT ?", arguments: [.text("x")]),
        Golden(predicate: "kMDItemFSName !=[c] 'x'", sql: "1", arguments: [], residual: "kMDItemFSName !=[c] \"x\""),
        Golden(predicate: "kMDItemURL ==[c] 'x'", sql: "1", arguments: [], residual: "kMDItemURL ==[c] \"x\""),
        Golden(predicate: "kMDItemFSName IN {'a', 'b'}", sql: "items.fs_name IN (?, ?)", arguments: [.text("a"), .text("b")]),
        Golden(predicate: "kMDItemFSName IN {}", sql: "0", arguments: []),
        Golden(predicate: "kMDItemFSSize BETWEEN {1, 10}", sql: "items.size BETWEEN ? AND ?", arguments: [.integer(1), .integer(10)]),
        Golden(predicate: "kMDItemFSSize BETWEEN {1}", sql: "1", arguments: [], residual: "kMDItemFSSize BETWEEN {1}"),
        Golden(predicate: "100 < kMDItemFSSize", sql: "items.size > ?", arguments: [.integer(100)]),
        Golden(predicate: "kMDItemContentTypeTree == 'public.text'",
               sql: "items.rowid IN (SELECT item_types.item_id FROM item_types WHERE item_types.uti = ?)", arguments: [.text("public.text")]),
        Golden(predicate: "'public.text' IN kMDItemContentTypeTree",
               sql: "items.rowid IN (SELECT item_types.item_id FROM item_types WHERE item_types.uti = ?)", arguments: [.text("public.text")]),
        Golden(predicate: "kMDItemContentTypeTree != 'public.image'",
               sql: "items.rowid NOT IN (SELECT item_types.item_id FROM item_types WHERE item_types.uti = ?)", arguments: [.text("public.image")]),
        Golden(predicate: "NONE kMDItemContentTypeTree BEGINSWITH 'public'",
               sql: "items.rowid NOT IN (SELECT item_types.item_id FROM item_types WHERE item_types.uti GLOB ?)", arguments: [.text("public*")]),
        Golden(predicate: "kMDItemContentTypeTree ==[c] 'Public.Text'",
               sql: "items.rowid IN (SELECT item_types.item_id FROM item_types)", arguments: [],
               residual: "ANY kMDItemContentTypeTree ==[c] \"Public.Text\""),
        Golden(predicate: "kMDItemTextContent CONTAINS 'hello \"world'",
               sql: "items.rowid IN (SELECT item_text.rowid FROM item_text WHERE item_text MATCH ?)", arguments: [.text("\"hello \"\"world\" *")]),
        Golden(predicate: "kMDItemTextContent LIKE 'quart*' AND kMDItemFSName MATCHES 'r.*'",
               sql: "items.rowid IN (SELECT item_text.rowid FROM item_text WHERE item_text MATCH ?)", arguments: [.text("\"quart\" *")],
               residual: "kMDItemFSName MATCHES \"r.*\""),
        Golden(predicate: "kMDItemFSCreationDate > $time.today(-1)", sql: "items.created > ?", arguments: [.real(790_041_600)]),
        Golden(predicate: "kMDItemFSContentChangeDate < CAST(700000000, 'NSDate')", sql: "items.modified < ?", arguments: [.real(700_000_000)]),
        Golden(predicate: "NSMetadataUbiquitousItemIsUploadedKey == YES", sql: "items.is_uploaded = ?", arguments: [.integer(1)]),
        Golden(predicate: "NSMetadataUbiquitousItemPercentDownloadedKey >= 99.5", sql: "items.percent_downloaded >= ?", arguments: [.real(99.5)]),
        Golden(predicate: "kMDItemFSName == nil", sql: "items.fs_name IS NULL", arguments: []),
        Golden(predicate: "kMDItemFSName != nil", sql: "items.fs_name IS NOT NULL", arguments: []),
        Golden(predicate: "kMDItemFSSize == 'big'", sql: "1", arguments: [], residual: "kMDItemFSSize == \"big\""),
        Golden(predicate: "kMDItemFSName.length > 3", sql: "1", arguments: [], residual: "kMDItemFSName.length > 3"),
        Golden(predicate: "TRUEPREDICATE", sql: "1", arguments: []),
        Golden(predicate: "FALSEPREDICATE OR kMDItemFSSize > 1", sql: "items.size > ?", arguments: [.integer(1)]),
        Golden(predicate: "kMDItemFSName BEGINSWITH[cd] 'É' AND NOT (kMDItemFSSize < 5 OR kMDItemContentType == 'public.folder')",
               sql: "(items.fs_name_fold GLOB ?) AND (NOT IFNULL(((items.size < ?) OR (items.content_type = ?)), 0))",
               arguments: [.text("e*"), .integer(5), .text("public.folder")]),
    ]

    @Test(arguments: goldens)
    func compilesToGoldenSQL(_ golden: Golden) throws {
        let compiled = try Predicate(format: golden.predicate).compile(for: IndexSchema.schema, time: IndexSchema.time)
        #expect(compiled.whereClause == golden.sql)
        #expect(compiled.arguments == golden.arguments)
        #expect(compiled.residual?.description == golden.residual)
    }

    @Test func unknownKeyIsACompileErrorNamingTheKey() {
        #expect { try Predicate(format: "kMDItemFSName == 'a' AND colour == 'red'").compile(for: IndexSchema.schema) } throws: { error in
            (error as? PredicateCompileError)?.message.contains("'colour'") == true
        }
    }

    @Test func fullTextWithAnUnsupportedOperatorIsACompileErrorListingTheSupportedOnes() {
        #expect { try Predicate(format: "kMDItemTextContent BEGINSWITH 'a'").compile(for: IndexSchema.schema) } throws: { error in
            (error as? PredicateCompileError)?.message.contains("CONTAINS, == and LIKE") == true
        }
    }

    @Test func fullTextInsideAResidualOrIsACompileError() {
        #expect(throws: PredicateCompileError.self) {
            try Predicate(format: "kMDItemTextContent CONTAINS 'x' OR kMDItemFSName MATCHES 'y'").compile(for: IndexSchema.schema)
        }
    }

    @Test func explanationNamesTheSQLTheParametersAndWhatRunsInMemory() throws {
        let compiled = try Predicate(format: "kMDItemFSSize > 3 AND kMDItemFSName MATCHES 'a.*'").compile(for: IndexSchema.schema)
        #expect(compiled.explanation.contains("WHERE items.size > ?"))
        #expect(compiled.explanation.contains("?1 = 3"))
        #expect(compiled.explanation.contains("MATCHES (regular expressions) has no SQL equivalent"))
    }

    @Test func anyAttributeExpandsOverTheTextAttributes() throws {
        let compiled = try Predicate(format: "* == 'x'").compile(for: IndexSchema.schema)
        #expect(compiled.residual == nil)
        #expect(compiled.whereClause.contains("items.fs_name = ?"))
        #expect(compiled.whereClause.contains("item_text MATCH ?"))
        #expect(!compiled.whereClause.contains("items.size"))
    }
}
