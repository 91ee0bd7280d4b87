import Diary
import KeyedArchive
import Testing
import TestSupport

/// `DiaryMerge` over seeded random concurrent edits: merging a side with itself gives it
/// back, no entry either side edited or added is lost, a field only one side changed keeps
/// that side's value, and the result does not depend on anything but the three inputs.
@Suite struct DiaryMergePropertyTests {
    static let seeds = Array(0..<300)

    @Test(arguments: seeds)
    func randomConcurrentEditsMergeWithoutLoss(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        let base = RandomDiary.entries(count: Int.random(in: 0...10, using: &random), prefix: "base", using: &random)
        let winner = RandomDiary.edited(base, side: "w", using: &random)
        let loser = RandomDiary.edited(base, side: "l", using: &random)
        let result = DiaryMerge.merge(base: base, winner: winner, loser: loser)
        let context = Comment(rawValue: "seed \(seed): replay with `swift test --filter DiaryMergePropertyTests` and seeds = [\(seed)]")

        for side in [winner, loser] {
            let same = DiaryMerge.merge(base: base, winner: side, loser: side)
            #expect(same.entries == side && same.isClean, context)
        }
        #expect(DiaryMerge.merge(base: base, winner: winner, loser: loser) == result, context)

        let merged = Dictionary(result.entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let original = Dictionary(base.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (side, other) in [(winner, loser), (loser, winner)] {
            let others = Dictionary(other.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for entry in side where entry != original[entry.id] {
                guard let kept = merged[entry.id] else {
                    Issue.record("\(context.rawValue): the changed entry \(entry.id) was lost")
                    continue
                }
                expectOneSidedFieldsKept(entry, kept: kept, base: original[entry.id], other: others[entry.id], context: context)
            }
        }
        for entry in base where !winner.contains(where: { $0.id == entry.id }) && loser.contains(entry) {
            #expect(merged[entry.id] == nil, "\(context.rawValue): \(entry.id) deleted by the winner came back")
        }
    }

    /// A field this side changed and the other side left as it was has this side's value.
    private func expectOneSidedFieldsKept(_ entry: DiaryEntry, kept: DiaryEntry, base: DiaryEntry?, other: DiaryEntry?, context: Comment) {
        guard let base, let other else { return }
        if entry.title != base.title && other.title == base.title { #expect(kept.title == entry.title, context) }
        if entry.body != base.body && other.body == base.body { #expect(kept.body == entry.body, context) }
        if entry.tags != base.tags && other.tags == base.tags { #expect(kept.tags == entry.tags, context) }
        if entry.attachment != base.attachment && other.attachment == base.attachment {
            #expect(kept.attachment == entry.attachment, context)
        }
        #expect(kept.modified >= max(entry.modified, other.modified), context)
    }
}

/// Random diaries and random edits of them, from a seeded generator.
enum RandomDiary {
    static let words = ["rain", "sun", "soup", "walk", "chess", "tea", "heron", "snow"]

    static func entries<G: RandomNumberGenerator>(count: Int, prefix: String, using random: inout G) -> [DiaryEntry] {
        (0..<count).map { index in
            let created = Double(Int.random(in: 0...1_000, using: &random))
            return DiaryEntry(
                id: "\(prefix)-\(index)", title: phrase(using: &random), body: phrase(using: &random),
                created: ReferenceDate(secondsSince2001: created), modified: ReferenceDate(secondsSince2001: created),
                tags: Array(words.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))),
                attachment: Bool.random(using: &random) ? nil : "\(phrase(using: &random)).jpg")
        }
    }

    /// Deletes some entries, edits some fields of others, inserts new ones at random places.
    static func edited<G: RandomNumberGenerator>(_ base: [DiaryEntry], side: String, using random: inout G) -> [DiaryEntry] {
        var result: [DiaryEntry] = []
        for entry in base {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...1: continue
            case 2...5: result.append(edit(entry, using: &random))
            default: result.append(entry)
            }
        }
        for addition in entries(count: Int.random(in: 0...3, using: &random), prefix: side, using: &random) {
            result.insert(addition, at: Int.random(in: 0...result.count, using: &random))
        }
        return result
    }

    static func edit<G: RandomNumberGenerator>(_ entry: DiaryEntry, using random: inout G) -> DiaryEntry {
        var edited = entry
        repeat {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: edited.title = phrase(using: &random)
            case 1: edited.body += " " + phrase(using: &random)
            case 2: edited.tags = Array(words.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
            default: edited.attachment = Bool.random(using: &random) ? nil : "\(phrase(using: &random)).png"
            }
        } while Bool.random(using: &random)
        edited.modified = ReferenceDate(secondsSince2001: entry.modified.secondsSince2001 + Double(Int.random(in: 1...100, using: &random)))
        return edited
    }

    static func phrase<G: RandomNumberGenerator>(using random: inout G) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }.joined(separator: " ")
    }
}
