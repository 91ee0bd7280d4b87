import Foundation
import Testing
import PredicateKit

/// `sql_agreement_cases.json` (read by the index's SQL agreement test) stays true to the
/// in-memory evaluator, and every case compiles.
@Suite struct SQLAgreementCaseTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var predicate: String
        var expected: [Int64]
        var fullText: Bool
        var testDescription: String { predicate }
    }

    static let file: PredicateValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sql_agreement_cases.json")
        guard let text = try? String(contentsOf: url, encoding: .utf8), let value = try? PredicateJSON.value(fromJSON: text) else { return nil }
        return value
    }()

    static var items: [PredicateValue] {
        guard case .dictionary(let root) = file, case .array(let items)? = root["items"] else { return [] }
        return items
    }

    static let cases: [Case] = {
        guard case .dictionary(let root) = file, case .array(let cases)? = root["cases"] else { return [] }
        return cases.compactMap { entry in
            guard case .dictionary(let fields) = entry, case .string(let predicate)? = fields["predicate"],
                case .array(let ids)? = fields["expected"], case .bool(let fullText)? = fields["fullText"]
            else { return nil }
            return Case(predicate: predicate, expected: ids.compactMap { if case .int(let id) = $0 { id } else { nil } }, fullText: fullText)
        }
    }()

    @Test func fileHasThirtyOrMoreCases() {
        #expect(Self.cases.count >= 30)
        #expect(Self.items.count >= 10)
    }

    @Test(arguments: cases)
    func expectedSetIsWhatMemoryEvaluationGives(_ testCase: Case) throws {
        let predicate = try Predicate(format: testCase.predicate)
        let compiled = try predicate.compile(for: IndexSchema.schema, time: IndexSchema.time)
        #expect(!compiled.whereClause.isEmpty)
        guard !testCase.fullText else { return }
        let prepared = predicate.prepared(for: IndexSchema.schema, time: IndexSchema.time)
        var matching: [Int64] = []
        for item in Self.items {
            guard case .dictionary(let fields) = item, case .int(let id)? = fields["id"] else { continue }
            if try prepared.evaluate(with: item, time: IndexSchema.time) { matching.append(id) }
        }
        #expect(matching == testCase.expected)
    }
}
