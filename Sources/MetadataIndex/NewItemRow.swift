import GRDB

/// An item's row, its columns worked out ahead of the write (`IndexChange.insert`): a bulk
/// load into a new container builds rows on a thread of its own while the writer's thread
/// only inserts them. Deriving the name, folded and path columns and converting them for
/// SQLite cost about as much as SQLite's own insert (100,000 rows: about a second each).
public struct NewItemRow: Sendable, Equatable {
    public let item: ItemSnapshot
    /// The values of `IndexWriter.insertedColumns`, in their order.
    let values: [DatabaseValue]

    /// Builds rows in order, reusing what siblings take from their parent folder
    /// (`ParentFolderCache`): one builder per thread, fed in path order for the reuse to pay.
    public struct Builder {
        private var parents = ParentFolderCache()

        public init() {}

        public mutating func row(for item: ItemSnapshot) -> NewItemRow {
            NewItemRow(item: item, values: IndexWriter.values(of: item, parents: &parents))
        }
    }
}
