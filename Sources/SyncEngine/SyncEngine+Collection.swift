import SyncPlanning

extension SyncEngine {
    /// Deletes the mirror's stored content that no kept version names any more (see
    /// `retention` and `StoreCollector`). Call on the sync thread, like `passAll`. Does
    /// nothing when the mirror is away. With history kept forever, what it deletes is
    /// content that only removed versions named (`removeOtherVersionsOfItem`), or none.
    public func collectStore(now: Int64 = SyncClock.nowMilliseconds()) -> StoreCollection {
        waitForViews()  // no view update links an object while the collector looks at it
        do {
            try checkMirror()
        } catch {
            var skipped = StoreCollection()
            skipped.problems = ["store not collected: \(error)"]
            return skipped
        }
        let collector = StoreCollector(layout: layout, device: device.id, retention: retention, graceMilliseconds: Self.collectionGraceMilliseconds)
        return probingMirror { collector.collect(now: now) }  // it reads the whole store
    }

    /// Objects younger than this are never collected: a day, far longer than an upload
    /// takes between touching an object and naming it in its log.
    public static let collectionGraceMilliseconds: Int64 = 86_400_000
}
