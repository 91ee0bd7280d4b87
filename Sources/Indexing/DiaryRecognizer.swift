import Diary
import KeyedArchive
import MetadataIndex

/// What a file turned out to be, read as a possible diary.
enum DiaryRecognition: Equatable {
    case notADiary
    case diary([DiaryEntry])
    /// The file is, or says it is, a diary, but its entries cannot be read: `reason` says why.
    case damaged(reason: String)
}

/// Tells diaries from other files by content: a keyed archive (binary or XML property list)
/// whose `$top` has the key `Diary`, whatever the file is called. The reference app's file
/// name (`Diary.archive`) only makes a damaged file worth a warning: a property list that
/// merely is not a diary is an ordinary file, said nothing about.
enum DiaryRecognizer {
    /// Larger files are not read whole to look for entries (they are still indexed as files).
    static let maximumBytes = 64 << 20

    /// Whether the file should be read whole and checked: its first bytes start a property
    /// list (XML ones must say `<plist` early), or it has the diary's name.
    static func isCandidate(fileName: [UInt8], leadingBytes: ArraySlice<UInt8>) -> Bool {
        if fileName.elementsEqual(DiaryArchive.fileName.utf8) { return true }
        switch PropertyList.formatName(of: Array(leadingBytes.prefix(64))) {
        case "binary": return true
        case "xml": return leadingBytes.firstRange(of: Array("<plist".utf8)) != nil
        default: return false
        }
    }

    static func recognize(_ bytes: [UInt8], fileName: [UInt8]) -> DiaryRecognition {
        let namedAsDiary = fileName.elementsEqual(DiaryArchive.fileName.utf8)
        let plist: PlistValue
        do {
            plist = try PropertyList.decode(bytes)
        } catch {
            return namedAsDiary ? .damaged(reason: error.description) : .notADiary
        }
        guard plist["$top"]?[DiaryArchive.topKey] != nil else {
            return namedAsDiary ? .damaged(reason: "not a diary: no key '\(DiaryArchive.topKey)' in $top") : .notADiary
        }
        do {
            return .diary(try DiaryArchive.entries(in: try KeyedUnarchiver.decode(plist: plist)))
        } catch {
            return .damaged(reason: error.description)
        }
    }

    /// The diary file's own searchable text: every entry's title and body, in file order.
    static func searchableText(_ entries: [DiaryEntry]) -> String {
        entries.map { $0.title + "\n" + $0.body }.joined(separator: "\n\n")
    }
}

extension DiaryEntryRecord {
    init(_ entry: DiaryEntry) {
        self.init(
            id: entry.id, title: entry.title, body: entry.body, created: entry.created.secondsSince2001,
            modified: entry.modified.secondsSince2001, tags: entry.tags)
    }
}
