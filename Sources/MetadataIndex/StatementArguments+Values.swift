import GRDB

extension StatementArguments {
    /// Arguments from values already converted (upserts and moves; new rows skip
    /// `StatementArguments` altogether, see `ValueInsert`). GRDB's initializer for a
    /// sequence of one `DatabaseValueConvertible` type maps it with a key path, which its
    /// generic code instantiates anew on every call: a third of the row-making thread's
    /// time when new rows were built that way. Its initializer for optional existentials
    /// maps with a closure, and a `DatabaseValue` fits an existential's inline buffer.
    init(databaseValues: [DatabaseValue]) {
        self.init(databaseValues.map { $0 as (any DatabaseValueConvertible)? })
    }
}
