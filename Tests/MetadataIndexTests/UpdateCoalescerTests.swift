import APIModel
import Testing

/// The net kind of an item's updates within one batching interval (APIModel's coalescer,
/// tested here beside the live-query state it serves).
@Suite struct UpdateCoalescerTests {
    @Test(arguments: [
        ([LiveUpdateKind.added, .changed], LiveUpdateKind?.some(.added)),
        ([.added, .changed, .removed], nil),
        ([.changed, .changed], .changed),
        ([.changed, .removed], .removed),
        ([.removed, .added], .changed),
        ([.removed, .added, .removed], .removed),
        ([.added, .removed, .added], .added),
    ])
    func netKindOfASequence(_ kinds: [LiveUpdateKind], _ expected: LiveUpdateKind?) {
        var coalescer = UpdateCoalescer<Int>()
        for (step, kind) in kinds.enumerated() { coalescer.add(kind, key: [1], item: step) }
        let merged = coalescer.take()
        #expect(merged.map(\.kind) == (expected.map { [$0] } ?? []))
        if expected != nil { #expect(merged.first?.item == kinds.count - 1) }
    }

    @Test func itemsKeepTheOrderOfTheirFirstChangeAndTakeEmpties() {
        var coalescer = UpdateCoalescer<String>()
        coalescer.add(.added, key: [2], item: "b")
        coalescer.add(.changed, key: [1], item: "a")
        coalescer.add(.changed, key: [2], item: "b2")
        #expect(coalescer.take().map(\.item) == ["b2", "a"])
        #expect(coalescer.isEmpty)
    }
}
