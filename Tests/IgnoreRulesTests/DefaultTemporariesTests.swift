import Testing
import IgnoreRules

/// One case per default rule: real names the tool writes, and near misses users may well
/// have, which must stay visible.
struct TemporaryCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var ignored: [String]
    var kept: [String]
    var testDescription: String { rule }
}

@Suite("Default editor and sync temporaries")
struct DefaultTemporariesTests {
    static let cases: [TemporaryCase] = [
        TemporaryCase(rule: "vim swap", ignored: [".notes.txt.swp", ".notes.txt.swo", "notes.swx", ".swp", "docs/.a.md.swn"],
                      kept: ["notes.txt", "swp", ".notes.swift", "notes.swpx", "swap.txt"]),
        TemporaryCase(rule: "vim 4913 probe", ignored: ["4913", "docs/4913"], kept: ["4913.txt", "49130", "x4913"]),
        TemporaryCase(rule: "backup ~", ignored: ["notes.txt~", "docs/report.odt~", "~"], kept: ["~notes.txt", "no~tes.txt"]),
        TemporaryCase(rule: "emacs lock .#", ignored: [".#notes.txt", "a/.#diary.org"], kept: ["#notes.txt", "notes.#txt", ".notes#"]),
        TemporaryCase(rule: "emacs autosave #x#", ignored: ["#notes.txt#", "a/#diary.org#"], kept: ["#notes.txt", "notes.txt#", "#"]),
        TemporaryCase(rule: "GIO .goutputstream", ignored: [".goutputstream-AB12CD", "a/.goutputstream-7XQ9ZB"],
                      kept: ["goutputstream-AB12CD", ".goutputstream"]),
        TemporaryCase(rule: "LibreOffice lock", ignored: [".~lock.report.odt#", "a/.~lock.budget.xlsx#"],
                      kept: [".~lock.report.odt", "~lock.report.odt#", ".lock.report.odt#"]),
        TemporaryCase(rule: "partial downloads", ignored: ["film.mkv.part", "setup.iso.crdownload"],
                      kept: ["film.part.mkv", "part", "counterpart.txt"]),
        TemporaryCase(rule: "hidden .tmp", ignored: [".notes.txt.tmp", ".syncthing.notes.txt.tmp"],
                      kept: ["report.tmp", "notes.tmp.txt", "tmp"]),
        TemporaryCase(rule: "rsync temporaries", ignored: [".notes.txt.Gh3kQz", ".a.AB12cd", "docs/.report.pdf.000123", ".a.ABCDE1", ".a.bACKUP"],
                      kept: [".env.docker", ".bashrc.backup", ".env.Docker", ".zshrc.Backup", ".env.DOCKER", "notes.txt.Gh3kQz", ".Gh3kQz", ".notes.Gh3kQ", ".notes.Gh3k-z"]),
        TemporaryCase(rule: "Foundation atomic writes", ignored: [".dat.nosync2275.9Bqct4", "a/.dat.nosync1.AbCdEf"],
                      kept: ["dat.nosync2275", ".data.nosync"]),
        TemporaryCase(rule: "VS Code atomic writes", ignored: ["settings.json.vsctmp"], kept: ["settings.json", "vsctmp.json"]),
        TemporaryCase(rule: "JetBrains safe write", ignored: ["Main.kt___jb_tmp___", "Main.kt___jb_old___"],
                      kept: ["Main.kt", "___jb_tmp___.txt"]),
        TemporaryCase(rule: "Kate swap", ignored: [".notes.txt.kate-swp"], kept: ["notes.kate", "kate-swp"]),
        TemporaryCase(rule: "Office owner files", ignored: ["~$report.docx"], kept: ["$report.docx", "report~$.docx"]),
        TemporaryCase(rule: ".DS_Store", ignored: [".DS_Store", "photos/.DS_Store"], kept: ["DS_Store", ".DS_Store.txt", ".ds_store"]),
        TemporaryCase(rule: "NFS silly rename", ignored: [".nfs0000000000a1b2c300000001"], kept: [".nfsrc", ".nfs-notes", "nfs00000000"]),
        TemporaryCase(rule: "daemon staging .ubq-", ignored: [".ubq-staging-1", "a/.ubq-cookie-42", ".ubq-dir/inner.txt"],
                      kept: ["ubq-notes.txt", ".ubqnotes"]),
    ]

    @Test(arguments: cases)
    func ignoresTemporariesButNotNearMisses(_ testCase: TemporaryCase) {
        let rules = IgnoreRules.editorAndSyncTemporaries
        for name in testCase.ignored {
            #expect(rules.isIgnored(relativePath: name, isDirectory: false), "\(name) should be ignored")
        }
        for name in testCase.kept {
            #expect(!rules.isIgnored(relativePath: name, isDirectory: false), "\(name) should be kept")
        }
    }

    @Test func rootIgnoreFileCanReincludeADefault() throws {
        let rules = IgnoreRules.editorAndSyncTemporaries.adding(try IgnoreRules(parsing: "!*.part\n", baseDirectory: ""))
        #expect(!rules.isIgnored(relativePath: "film.mkv.part", isDirectory: false))
        #expect(rules.isIgnored(relativePath: ".notes.txt.swp", isDirectory: false))
    }

    @Test func stagingPrefixCannotBeReincluded() throws {
        let rules = IgnoreRules.editorAndSyncTemporaries.adding(try IgnoreRules(parsing: "!.ubq-*\n!*", baseDirectory: ""))
        #expect(rules.isIgnored(relativePath: ".ubq-staging-1", isDirectory: false))
        #expect(rules.isIgnored(relativePath: "a/.ubq-tmp/x", isDirectory: false))
    }

    @Test func ignoredFolderHidesEverythingInside() {
        let rules = IgnoreRules.editorAndSyncTemporaries
        #expect(rules.isIgnored(relativePath: ".~lock.x#/inner.txt", isDirectory: false))
        #expect(!rules.isIgnored(relativePath: "docs/notes.txt", isDirectory: false))
    }
}
