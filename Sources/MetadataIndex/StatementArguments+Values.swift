import GRDB

extension StatementArguments {
    /// Arguments from values already converted. GRDB's initializer for a sequence of one
    /// `DatabaseValueConvertible` type maps it with a key path, which a generic context
    /// instantiates on every call: for the 23 columns of 100,000 new rows that was a third
    /// of the row-making thread's time. Its initializer for optional existentials maps with
    /// a closure, and a `DatabaseValue` fits an existential's inline buffer.
    init(databaseValues: [DatabaseValue]) {
        self.init(databaseValues.map { $0 as (any DatabaseValueConvertible)? })
    }
}
