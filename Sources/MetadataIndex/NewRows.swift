/// Rows of new items, their columns worked out ahead of the write: a bulk load into a new
/// container (`BulkLoad.insert`) builds them on a thread of its own while the writer's
/// thread only inserts them. Deriving the name, folded and path columns cost about as much
/// as SQLite's own insert (100,000 rows: about a second each).
///
/// A batch is laid out flat: every text and blob value of its rows lies in one byte
/// buffer, and each column is a plain cell pointing into it. Rows held as `ItemSnapshot`s
/// and `[DatabaseValue]`s cost a dozen allocations each, and a reference count for every
/// string at each copy on the way to the writer; the writer then freed memory the row
/// thread had allocated (through glibc's arena locks). In a profile of a fresh start, about
/// a third of the writer thread's samples were in Swift code, malloc and free.
///
/// Only items whose content is still to be read are rows here (`contentPending`, as the
/// start-up scan records them): the batch holds no text or diary entries.
public struct NewRows: Sendable {
    /// One column's value. Text and blobs are ranges of `bytes` (batches are a thousand
    /// rows or so: far from the 2 GiB the offsets could address).
    enum Cell: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(start: Int32, count: Int32)
        case blob(start: Int32, count: Int32)
    }

    /// The text and blob values of every row, back to back.
    private(set) var bytes: [UInt8] = []
    /// `IndexWriter.insertedColumns.count` cells a row, row after row.
    private(set) var cells: [Cell] = []
    /// Each row's kind.
    public private(set) var kinds: [FileSignature.Kind] = []
    /// The content types of the batch's rows, each once, with its type tree.
    private(set) var types: [(type: String, tree: [String])] = []
    private var typesSeen: Set<String> = []

    public init() {}

    public var count: Int { kinds.count }
    public var isEmpty: Bool { kinds.isEmpty }
    static var width: Int { IndexWriter.insertedColumns.count }

    /// The cells of row `row`.
    func cells(ofRow row: Int) -> ArraySlice<Cell> {
        cells[row * Self.width..<(row + 1) * Self.width]
    }

    /// Builds batches in order, reusing what siblings take from their parent folder
    /// (`ParentFolderCache`): one builder per thread, fed in path order for the reuse to pay.
    public struct Builder {
        private var parents = ParentFolderCache()
        public private(set) var rows = NewRows()

        public init() {}

        /// Adds the row of `item`, whose content is pending: it must have no text or diary
        /// entries (a row here has nowhere to keep them).
        public mutating func append(_ item: ItemSnapshot) {
            precondition(item.textContent == nil && item.diaryEntries == nil, "NewRows holds rows without content")
            rows.appendType(item.contentType, tree: item.contentTypeTree)
            rows.kinds.append(item.signature.kind)
            IndexWriter.appendColumns(of: item, parents: &parents, to: &rows)
        }

        /// Returns the rows built since the last call, and starts a new batch.
        public mutating func take() -> NewRows {
            defer { rows = NewRows() }
            return rows
        }
    }

    private mutating func appendType(_ type: String, tree: [String]) {
        if typesSeen.insert(type).inserted { types.append((type, tree)) }
    }
}

extension NewRows: ColumnSink {
    mutating func appendNull() { cells.append(.null) }
    mutating func append(_ value: Int64) { cells.append(.integer(value)) }
    mutating func append(_ value: Double) { cells.append(.real(value)) }

    mutating func append(_ value: String) {
        var value = value
        let start = Int32(bytes.count)
        value.withUTF8 { bytes.append(contentsOf: $0) }
        cells.append(.text(start: start, count: Int32(bytes.count) - start))
    }

    mutating func appendText(_ head: some Collection<UInt8>, _ tail: some Collection<UInt8>) {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: tail)
        cells.append(.text(start: start, count: Int32(bytes.count) - start))
    }

    mutating func appendBlob(_ value: [UInt8]) {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: value)
        cells.append(.blob(start: start, count: Int32(value.count)))
    }
}
