import MetadataIndex
import RawPaths

/// The index's signatures of one tree in path order, read a page at a time as the merge
/// with the disk walk consumes them.
///
/// A page is read only once the previous one is used up, so at most one page is held.
/// Reading on while the same reconciliation writes is sound: each page starts after the
/// last path read, and the merge writes only paths at or before the disk's current one,
/// which the index side has already passed (removals may delete rows ahead; those are
/// gone from the disk too).
struct IndexPages {
    private let read: (_ after: RawPath?) throws -> [IndexedSignature]
    private var page: [IndexedSignature] = []
    private var position = 0
    private var exhausted = false

    init(read: @escaping (_ after: RawPath?) throws -> [IndexedSignature]) {
        self.read = read
    }

    mutating func next() throws -> IndexedSignature? {
        if position == page.count {
            guard !exhausted else { return nil }
            let after = page.last?.relativePath
            page = try read(after)
            position = 0
            // A short page is the last (also the first page, which may add the tree's root
            // row to a full page).
            exhausted = page.isEmpty
            guard !page.isEmpty else { return nil }
        }
        defer { position += 1 }
        return page[position]
    }
}
