import Foundation
@testable import SyncEngine
import Testing

/// An item replaced by one of another kind at the same path (a folder by a file or a
/// link, and back) is replaced alike on every device: rename(2) cannot put a file where a
/// folder is, so the folder's content goes first and then the folder.
@Suite("An item that changes kind at its path")
struct KindChangeTests {
    enum Replacement: String, CaseIterable {
        case link, file
    }

    @Test(arguments: Replacement.allCases, [true, false])
    func aFolderReplacedOnOneDeviceIsReplacedOnTheOther(by replacement: Replacement, holdingFiles: Bool) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        if holdingFiles {
            try a.write("folder/x.txt", "v1")
            try a.write("folder/sub/y.txt", "v1")
        } else {
            try FileManager.default.createDirectory(atPath: a.documents + "/folder", withIntermediateDirectories: true)
        }
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/folder")
        try Self.make(replacement, at: a.documents + "/folder")
        a.sync(confirmDeletes: true)
        let report = b.sync()

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree() == a.tree())
        #expect(b.tree().count == 1, "only the \(replacement): \(b.tree())")
    }

    @Test(arguments: Replacement.allCases)
    func aFileOrLinkReplacedByAFolderIsReplacedOnTheOtherDevice(_ replaced: Replacement) throws {
        let scratch = Scratch()
        let (a, b) = try scratch.pair()
        try Self.make(replaced, at: a.documents + "/item")
        a.sync()
        b.sync()
        try FileManager.default.removeItem(atPath: a.documents + "/item")
        try a.write("item/inside.txt", "inside")
        a.sync()
        let report = b.sync()

        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(b.tree() == ["item": "<folder>", "item/inside.txt": "inside"])
    }

    private static func make(_ kind: Replacement, at path: String) throws {
        switch kind {
        case .link: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "elsewhere")
        case .file: try Data("now a file".utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}
