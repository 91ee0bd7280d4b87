import Foundation
import RawPaths
import Testing
import TestSupport

@testable import SyncEngine

/// Device a renames folder `p` to `q` (or moves it into `r`) while device b, not having
/// synced since, makes a few random changes in and around `p`: renames, moves in and out,
/// new files and folders, edits, deletions. a, after its rename, edits files b neither
/// edited nor deleted, renames files b neither moved nor deleted, deletes files, adds
/// some, and renames the subfolder if b left it where it was. Whichever device publishes
/// first, both must end with the tree a user would have made doing both on one machine:
/// b's changes and a's, made in `q`. No old folder comes back, no file keeps two names,
/// and nothing either did is lost.
///
/// A third of the runs where a publishes first, b publishes without having read a's log,
/// as if both published at the same moment; b then only adds to `p` (`Strays`).
///
/// A third device, c, changes nothing: it syncs at a random point in between, and at the
/// end must hold the same tree, having published nothing.
///
/// Half the runs sync as ubqd's passes do between its full passes: each told only the
/// paths its device changed (as its watcher tells them), then nothing (what other devices
/// changed, and what earlier passes left to look at).
///
/// `UBQ_COMPOSE_SEED` replays one seed; `UBQ_COMPOSE_SEEDS` sets how many run.
@Suite("Randomized rename composition")
struct RenameCompositionTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds: [UInt64] = {
        if let seed = environment["UBQ_COMPOSE_SEED"].flatMap(UInt64.init) { return [seed] }
        var seeds = SplitMix64(seed: 60)
        return (0..<(environment["UBQ_COMPOSE_SEEDS"].flatMap(Int.init) ?? 24)).map { _ in seeds.next() }
    }()

    @Test(arguments: seeds)
    func changesInAFolderComposeWithItsRename(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let scratch = Scratch()
        let devices = try scratch.devices("a", "b", "c")
        let (a, b, c) = (devices[0], devices[1], devices[2])
        var model = ComposedTree.initial
        for (path, text) in model.files { try a.write(path, text) }
        a.sync()
        b.sync()
        c.sync()
        // c changes nothing: it syncs once at a random point between a's and b's passes,
        // then at the end, and must end as they do, having published nothing.
        let cSyncsAfter = random.below(6)
        var publishedOnC = 0

        let renameFirst = random.below(2) == 0
        let told = random.below(2) == 0
        let target = random.below(3) == 0 ? "r/q" : "q"
        try FileManager.default.moveItem(atPath: a.documents + "/p", toPath: a.documents + "/" + target)
        let renamedOnA: Set<RawPath> = ["Documents/p", RawPath("Documents/" + target)]
        if renameFirst { a.sync(changed: told ? renamedOnA : nil) }
        // A third of the times a publishes first, b publishes without having read a's log
        // (both at once), and each meets the other's changes in the mirror (`Strays`). Then b
        // only adds to `p`: other changes published at once compose as two renames of one
        // file do, both staying (README).
        let atOnce = renameFirst && random.below(3) == 0
        let done = try Self.changeOnB(b, model: &model, onlyAdding: atOnce, random: &random)
        var (doneOnA, changedOnA) = try Self.changeOnA(a, renamedTo: target, model: &model, random: &random)
        if !renameFirst { changedOnA.formUnion(renamedOnA) }
        // b syncs next either way: it meets a's published rename, or a meets b's changes; or
        // b publishes without having read a's log (both at once).
        let changedOnB = told ? Set(done.flatMap(\.paths).map { RawPath("Documents/" + $0) }) : nil
        if atOnce {
            try TwinVersionTests.unseen(a, by: b) { $0.sync(changed: changedOnB) }
        } else {
            b.sync(changed: changedOnB)
        }
        if cSyncsAfter == 0 { publishedOnC += c.sync(changed: told ? [] : nil).published }
        a.sync(changed: told ? changedOnA : nil)
        for step in 1...2 {
            if cSyncsAfter == step { publishedOnC += c.sync(changed: told ? [] : nil).published }
            b.sync(changed: told ? [] : nil)
            a.sync(changed: told ? [] : nil)
        }
        publishedOnC += c.sync(changed: told ? [] : nil).published + c.sync().published
        let expected = model.renamed(from: "p", to: target)
        let passes = told ? "passes told what changed" : "full passes"
        let story = "seed \(seed), p renamed to \(target), \(atOnce ? "both published at once" : renameFirst ? "a's rename published first" : "b's changes published first"), \(passes): b \(done), a \(doneOnA)"
        #expect(a.tree() == expected, "a: \(Self.difference(a.tree(), expected)); \(story)")
        #expect(b.tree() == expected, "b: \(Self.difference(b.tree(), expected)); \(story)")
        #expect(c.tree() == expected, "c: \(Self.difference(c.tree(), expected)); \(story)")
        #expect(a.sync().published == 0 && b.sync().published == 0, "still publishing; \(story)")
        #expect(publishedOnC == 0, "c, which changed nothing, published \(publishedOnC); \(story)")
    }

    /// b's one to four random changes (`ComposedTree.randomChange`), made on its disk and in
    /// `model`.
    static func changeOnB(
        _ b: TestDevice, model: inout ComposedTree, onlyAdding: Bool = false, random: inout SplitMix64
    ) throws -> [ComposedTree.Change] {
        var done: [ComposedTree.Change] = []
        for _ in 0..<(1 + random.below(4)) {
            guard let change = model.randomChange(onlyAdding: onlyAdding, using: &random) else { break }
            try change.apply(in: b.documents)
            model.apply(change)
            done.append(change)
        }
        return done
    }

    /// a's random changes after renaming `p` to `target`, made on its disk and in `model`:
    /// what it did, and the paths its watcher would tell.
    static func changeOnA(
        _ a: TestDevice, renamedTo target: String, model: inout ComposedTree, random: inout SplitMix64
    ) throws -> (done: [String], changed: Set<RawPath>) {
        var done: [String] = []
        var changed: Set<RawPath> = []
        func here(_ path: String) -> String { target + path.dropFirst(1) }  // `p/…` as a has it
        for step in 0..<random.below(4) {
            let kind = random.below(4)
            if kind == 0, let original = model.untouchedOriginal(using: &random) {
                let text = "edited on a \(step)"
                try a.write(here(original), text)
                changed.insert(RawPath("Documents/" + here(original)))
                model.editOnA(original, text: text)
                done.append("edit \(original)")
            } else if kind == 1, let original = model.unmovedOriginal(using: &random) {
                let renamed = ComposedTree.folder(of: original) + "/m\(step).txt"
                try FolderMoveSyncTests.rename(a, here(original), to: here(renamed))
                changed.formUnion([original, renamed].map { RawPath("Documents/" + here($0)) })
                model.renameOnA(original, to: renamed)
                done.append("mv \(original) \(renamed)")
            } else if kind == 2, let original = model.aliveOriginal(using: &random) {
                try FileManager.default.removeItem(atPath: a.documents + "/" + here(original))
                changed.insert(RawPath("Documents/" + here(original)))
                model.deleteOnA(original)
                done.append("rm \(original)")
            } else {
                try a.write(here("p/m\(step).txt"), "made on a")
                changed.insert(RawPath("Documents/" + here("p/m\(step).txt")))
                model.files["p/m\(step).txt"] = "made on a"
                done.append("write m\(step).txt")
            }
        }
        // Last, as the steps above name files by where the rename of `p` put them.
        if random.below(3) == 0, model.folders.contains("p/sub"), model.untouchedFolders.contains("p/sub") {
            try FolderMoveSyncTests.rename(a, here("p/sub"), to: here("p/sub-a"))
            changed.formUnion([RawPath("Documents/" + here("p/sub")), RawPath("Documents/" + here("p/sub-a"))])
            model.apply(.move("p/sub", to: "p/sub-a"))
            done.append("mv p/sub p/sub-a")
        }
        return (done, changed)
    }

    /// What `tree` has that `expected` has not, and the other way round.
    static func difference(_ tree: [String: String], _ expected: [String: String]) -> String {
        let extra = tree.filter { expected[$0.key] != $0.value }.keys.sorted()
        let missing = expected.filter { tree[$0.key] != $0.value }.keys.sorted()
        return "has \(extra), lacks \(missing)"
    }
}

/// The tree b means to make: files (path → text) and folders, container-relative.
struct ComposedTree {
    var files: [String: String]
    var folders: Set<String>
    var madeNames = 0
    /// Each file's path in `initial`, by where it is now (files made since have none).
    var origins: [String: String] = [:]
    /// The files of `initial` b edited or deleted, or a changed.
    var touched: Set<String> = []
    /// The files of `initial` b edited.
    var editedOnB: Set<String> = []
    /// The folders of `initial` b neither moved nor deleted.
    var untouchedFolders: Set<String> = ["p", "p/sub", "r", "s"]

    static let initial = ComposedTree(
        files: ["p/f1.txt": "f1", "p/f2.txt": "f2", "p/f3.txt": "f3", "p/sub/g1.txt": "g1", "p/sub/g2.txt": "g2", "o1.txt": "o1", "o2.txt": "o2", "r/keep.txt": "k", "s/s1.txt": "s1"],
        folders: ["p", "p/sub", "r", "s"],
        origins: Dictionary(uniqueKeysWithValues: ["p/f1.txt", "p/f2.txt", "p/f3.txt", "p/sub/g1.txt", "p/sub/g2.txt", "o1.txt", "o2.txt", "r/keep.txt", "s/s1.txt"].map { ($0, $0) }))

    enum Change: CustomStringConvertible {
        case move(String, to: String)
        case write(String, String)
        case delete(String)
        case makeFolder(String)

        /// The paths the change touches, as a watcher tells them.
        var paths: [String] {
            switch self {
            case .move(let from, let to): [from, to]
            case .write(let path, _), .delete(let path), .makeFolder(let path): [path]
            }
        }

        var description: String {
            switch self {
            case .move(let from, let to): "mv \(from) \(to)"
            case .write(let path, _): "write \(path)"
            case .delete(let path): "rm \(path)"
            case .makeFolder(let path): "mkdir \(path)"
            }
        }

        func apply(in documents: String) throws {
            let manager = FileManager.default
            switch self {
            case .move(let from, let to): try manager.moveItem(atPath: documents + "/" + from, toPath: documents + "/" + to)
            case .write(let path, let text): try Data(text.utf8).write(to: URL(fileURLWithPath: documents + "/" + path))
            case .delete(let path): try manager.removeItem(atPath: documents + "/" + path)  // a folder with all it holds
            case .makeFolder(let path): try manager.createDirectory(atPath: documents + "/" + path, withIntermediateDirectories: false)
            }
        }
    }

    /// A change b may make now: a file renamed in `p`, moved into or out of it, made, edited
    /// or deleted there, a folder made there, a subfolder renamed or deleted, or the
    /// folder `s` moved into it. `onlyAdding`: a file or folder made there, or one moved in.
    mutating func randomChange(onlyAdding: Bool = false, using random: inout SplitMix64) -> Change? {
        let inside = files.keys.filter { $0.hasPrefix("p/") }.sorted()
        let outside = files.keys.filter { !$0.hasPrefix("p/") }.sorted()
        let places = folders.filter { $0 == "p" || $0.hasPrefix("p/") }.sorted()
        madeNames += 1
        let name = "n\(madeNames)"
        func pick(_ list: [String]) -> String? { list.isEmpty ? nil : list[random.below(list.count)] }
        let kinds = onlyAdding ? (folders.contains("s") ? [1, 3, 6, 9] : [1, 3, 6]) : Array(0..<10)
        switch kinds[random.below(kinds.count)] {
        case 0: return pick(inside).map { .move($0, to: Self.folder(of: $0) + "/" + name + ".txt") }
        case 1: return pick(outside).flatMap { from in pick(places).map { .move(from, to: $0 + "/" + name + ".txt") } }
        case 2: return pick(inside).map { .move($0, to: "r/" + name + ".txt") }
        case 3: return pick(places).map { .write($0 + "/" + name + ".txt", "made \(name)") }
        case 4: return pick(inside).map { .write($0, "edited \(name)") }
        case 5: return pick(inside).map { .delete($0) }
        case 6: return pick(places).map { .makeFolder($0 + "/" + name) }
        case 7: return places.contains("p/sub") ? .move("p/sub", to: "p/" + name) : pick(inside).map { .write($0, "edited \(name)") }
        case 8: return pick(places.filter { $0 != "p" }).map { .delete($0) }
        default: return folders.contains("s") ? pick(places).map { .move("s", to: $0 + "/" + name) } : pick(inside).map { .delete($0) }
        }
    }

    mutating func apply(_ change: Change) {
        switch change {
        case .move(let from, let to):
            if let text = files.removeValue(forKey: from) {
                files[to] = text
                origins[to] = origins.removeValue(forKey: from)
            } else {
                untouchedFolders.remove(from)
                folders.remove(from)
                folders.insert(to)
                for (path, text) in files where path.hasPrefix(from + "/") {
                    files[path] = nil
                    files[to + path.dropFirst(from.count)] = text
                    origins[to + path.dropFirst(from.count)] = origins.removeValue(forKey: path)
                }
                for path in folders where path.hasPrefix(from + "/") {
                    folders.remove(path)
                    folders.insert(to + path.dropFirst(from.count))
                }
            }
        case .write(let path, let text):
            files[path] = text
            if let origin = origins[path] {
                touched.insert(origin)
                editedOnB.insert(origin)
            }
        case .delete(let path):
            untouchedFolders.remove(path)
            for (file, origin) in origins where file == path || file.hasPrefix(path + "/") {
                touched.insert(origin)
                origins[file] = nil
            }
            files[path] = nil
            folders.remove(path)
            for file in files.keys where file.hasPrefix(path + "/") { files[file] = nil }
            for folder in folders where folder.hasPrefix(path + "/") { folders.remove(folder) }
        case .makeFolder(let path): folders.insert(path)
        }
    }

    /// A file of `initial` in `p` that b neither edited nor deleted (it may have moved it),
    /// which a may edit: the edit follows wherever b moved it.
    func untouchedOriginal(using random: inout SplitMix64) -> String? {
        let candidates = origins.values.filter { $0.hasPrefix("p/") && !touched.contains($0) && !Self.keptOnA.contains($0) }.sorted()
        return candidates.isEmpty ? nil : candidates[random.below(candidates.count)]
    }

    /// a's edit of `original`, wherever b moved it.
    mutating func editOnA(_ original: String, text: String) {
        guard let path = origins.first(where: { $0.value == original })?.key else { return }
        files[path] = text
        touched.insert(original)  // not edited twice
        changedOnA.insert(original)
    }

    /// A file of `initial` in `p` that a has not changed, still where it was (b neither
    /// moved nor deleted it, nor its folder; it may have edited it), which a may rename.
    func unmovedOriginal(using random: inout SplitMix64) -> String? {
        let candidates = origins.filter { $0.key == $0.value && $0.value.hasPrefix("p/") && !changedOnA.contains($0.value) && !Self.keptOnA.contains($0.value) }
            .map(\.value).sorted()
        return candidates.isEmpty ? nil : candidates[random.below(candidates.count)]
    }

    /// A file of `initial` in `p` that a has not changed, and b has not deleted.
    func aliveOriginal(using random: inout SplitMix64) -> String? {
        let candidates = origins.values.filter { $0.hasPrefix("p/") && !changedOnA.contains($0) && !Self.keptOnA.contains($0) }.sorted()
        return candidates.isEmpty ? nil : candidates[random.below(candidates.count)]
    }

    /// The files a leaves as they were, one in each folder it renames. A folder's rename is
    /// known by what it holds that kept its name and content (the mirror records it item
    /// by item: `Landings.folderRenamesHere`); one whose every item the renaming device
    /// changed too is a new folder to the others, and the old one's items stay there.
    static let keptOnA: Set<String> = ["p/f3.txt", "p/sub/g2.txt"]

    /// The files of `initial` a changed.
    var changedOnA: Set<String> = []

    /// a's rename of `original` (where b left it) to `renamed`, in `p`'s terms.
    mutating func renameOnA(_ original: String, to renamed: String) {
        files[renamed] = files.removeValue(forKey: original)
        origins[original] = nil
        changedOnA.insert(original)
        touched.insert(original)
    }

    /// a's deletion of `original`: it goes, unless b edited it (an edit beats a deletion).
    mutating func deleteOnA(_ original: String) {
        changedOnA.insert(original)
        touched.insert(original)
        guard !editedOnB.contains(original), let path = origins.first(where: { $0.value == original })?.key else { return }
        files[path] = nil
        origins[path] = nil
    }

    /// The tree as `TestDevice.tree()` shows it, with folder `old` renamed to `new`.
    func renamed(from old: String, to new: String) -> [String: String] {
        func moved(_ path: String) -> String { path == old || path.hasPrefix(old + "/") ? new + path.dropFirst(old.count) : path }
        var tree: [String: String] = [:]
        for (path, text) in files { tree[moved(path)] = text }
        for folder in folders { tree[moved(folder)] = "<folder>" }
        return tree
    }

    static func folder(of path: String) -> String { String(path[..<path.lastIndex(of: "/")!]) }
}
