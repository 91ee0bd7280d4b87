import Diary
import Foundation
import KeyedArchive

/// The reference app's diary as a `Document`: `entries` saved as the app saves them, an
/// NSKeyedArchiver archive whose `$top` key `Diary` holds an array of dictionaries
/// (`DiaryArchive`), in `Documents/Diary.archive` of the app's container.
///
///     let diary = DiaryDocument(fileURL: url, coordinator: coordinator)
///     try await diary.open()                   // or, for a new file, nothing to open
///     diary.addEntry(title: "Day one", body: "…")
///     try await diary.save(to: url, for: .forOverwriting)
///     try await diary.close()
///
/// Every edit method marks the document changed (`updateChangeCount(.done)`), so `close()`
/// saves it.
public final class DiaryDocument: Document {
    /// The diary's file name in the container's `Documents`.
    public static let fileName = DiaryArchive.fileName
    /// The diary's type identifier (what `fileType` reports).
    public static let typeIdentifier = "org.ubiquity.diary-archive"

    /// The entries, in the order the file holds them (oldest first, as the app appends).
    public private(set) var entries: [DiaryEntry] = []
    /// The property list format saves use: binary, as the app writes it, unless told otherwise.
    public var format: PlistFormat = .binary

    override public var fileType: String { Self.typeIdentifier }

    /// The diary file in a container's Documents folder.
    public static func url(inDocuments documents: URL) -> URL {
        documents.appendingPathComponent(fileName, isDirectory: false)
    }

    // MARK: Document

    override public func contents(forType typeName: String) throws -> Data {
        do {
            return Data(try DiaryArchive.encode(entries, format: format))
        } catch {
            throw DocumentError(code: .contentsInvalid, message: "cannot encode the diary \(fileURL.path): \(error)", path: fileURL.path, underlying: error)
        }
    }

    override public func load(fromContents contents: Data, ofType typeName: String) throws {
        do {
            entries = try DiaryArchive.decode(Array(contents))
        } catch {
            throw DocumentError(
                code: .contentsInvalid,
                message: "\(fileURL.path) is not a readable diary: \(error) (`ubq archive decode` shows what it holds)",
                path: fileURL.path, underlying: error)
        }
    }

    // MARK: Editing

    /// Appends `entry`.
    public func add(_ entry: DiaryEntry) {
        entries.append(entry)
        updateChangeCount(.done)
    }

    /// Adds a new entry (fresh id, created and modified now) and returns it.
    @discardableResult
    public func addEntry(title: String, body: String, tags: [String] = [], now: Date = Date()) -> DiaryEntry {
        let entry = DiaryEntry(title: title, body: body, now: ReferenceDate(now), tags: tags)
        add(entry)
        return entry
    }

    /// Replaces the entry with `entry.id`; false (and no change) when there is none.
    @discardableResult
    public func update(_ entry: DiaryEntry) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == entry.id }) else { return false }
        entries[index] = entry
        updateChangeCount(.done)
        return true
    }

    /// Removes the entry with `id` and returns it; nil (and no change) when there is none.
    @discardableResult
    public func remove(id: String) -> DiaryEntry? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        updateChangeCount(.done)
        return entries.remove(at: index)
    }

    /// Replaces all entries (an import, a merge).
    public func replaceEntries(_ newEntries: [DiaryEntry]) {
        entries = newEntries
        updateChangeCount(.done)
    }

    /// The entries whose id starts with `prefix`, ignoring case (a unique prefix names one).
    public func entries(withIDPrefix prefix: String) -> [DiaryEntry] {
        let wanted = prefix.uppercased()
        if let exact = entries.first(where: { $0.id.uppercased() == wanted }) { return [exact] }
        return entries.filter { $0.id.uppercased().hasPrefix(wanted) }
    }
}

extension ReferenceDate {
    /// The same instant as `date` (seconds since 2001-01-01 UTC, as NSDate keeps them).
    public init(_ date: Date) {
        self.init(secondsSince2001: date.timeIntervalSinceReferenceDate)
    }

    /// The same instant as a Foundation `Date`.
    public var date: Date { Date(timeIntervalSinceReferenceDate: secondsSince2001) }
}
