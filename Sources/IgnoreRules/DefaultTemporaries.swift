// The default ignore list (DESIGN.md decision 2): files editors and sync tools create while
// saving or transferring, which must never be indexed or uploaded.

enum DefaultTemporaries {
    /// Each pattern with the program that writes such names and a real example.
    /// Checked by the tests, one example and several near misses per line.
    static let patterns = """
        # vim: swap files (.notes.txt.swp, then .swo, .swn, ...), .swx probes, and the
        # "4913" file vim creates to test whether it may write into a folder
        *.swp
        *.swo
        *.swx
        .*.sw?
        4913
        # backup copies: notes.txt~ (vim backupcopy, emacs, gedit, nano)
        *~
        # emacs: lock links .#notes.txt and auto-save files #notes.txt#
        .#*
        \\#*#
        # GIO/gedit atomic saves: .goutputstream-ABC123
        .goutputstream-*
        # LibreOffice lock files: .~lock.report.odt#
        .~lock.*#
        # partial downloads and transfers: film.mkv.part, file.crdownload (Chromium)
        *.part
        *.crdownload
        # hidden temporary files: .notes.txt.tmp (Syncthing writes .syncthing.NAME.tmp)
        .*.tmp
        # Foundation's atomic writes (Data.write(options: .atomic)): .dat.nosync1a2b.Xy12Zq
        .dat.nosync*
        # VS Code atomic writes (settings, storage): settings.json.vsctmp
        *.vsctmp
        # JetBrains "safe write": notes.txt___jb_tmp___, notes.txt___jb_old___
        *___jb_tmp___
        *___jb_old___
        # Kate swap files: .notes.txt.kate-swp
        .*.kate-swp
        # Microsoft Office owner files: ~$report.docx
        ~$*
        # Finder metadata, when a Mac wrote to the folder
        .DS_Store
        # NFS "silly rename" of open-but-deleted files: .nfs0000000000a1b2c300000001
        .nfs[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]*
        """

    /// The prefix of every staging and cookie file the daemon writes. Always ignored.
    static let stagingPattern = ".ubq-*"

    static func rules() -> IgnoreRules {
        let parsed = IgnoreFileParser.parse(patterns, base: [])
        let staging = IgnoreFileParser.parse(stagingPattern, base: [])
        let rsync = IgnoreRule(matcher: .rsyncTemporary, depth: 0, isFinal: false)
        return IgnoreRules(patterns: staging.patterns, base: [], isFinal: true)
            .adding(IgnoreRules(rules: [rsync]))
            .adding(IgnoreRules(patterns: parsed.patterns, base: []))
    }

    /// rsync's temporary files: `.` + the destination name + `.` + six characters from
    /// mkstemp's alphabet `[A-Za-z0-9]`, e.g. `.notes.txt.Gh3kQz`.
    ///
    /// Gitignore syntax would have to say `.*.??????`, which also hides ordinary dotfiles
    /// such as `.env.docker`, `.bashrc.backup`, `.env.Docker` or `.zshrc.Backup`, never
    /// synced then. So the six characters must also not read as a word: all lowercase, all
    /// uppercase, or capitalized. mkstemp draws one of those 1.6 % of the time (0.55 % each,
    /// (26/62)^6), and a file rsync is still writing waits
    /// anyway, as any file being written does (decision 2's quiet period); only what an
    /// interrupted rsync left behind may then be synced.
    static func isRsyncTemporary(_ name: ArraySlice<UInt8>) -> Bool {
        guard name.count >= 9, name.first == Ascii.dot else { return false }
        let suffix = name.suffix(7)
        guard suffix.first == Ascii.dot else { return false }
        let random = suffix.dropFirst()
        guard random.allSatisfy(Ascii.isAlnum) else { return false }
        return !readsAsWord(random)
    }

    /// All lowercase, all uppercase, or an uppercase letter and then lowercase ones.
    private static func readsAsWord(_ letters: ArraySlice<UInt8>) -> Bool {
        guard let first = letters.first else { return false }
        let rest = letters.dropFirst()
        return (Ascii.isLower(first) && rest.allSatisfy(Ascii.isLower)) || (Ascii.isUpper(first) && rest.allSatisfy(Ascii.isLower))
            || letters.allSatisfy(Ascii.isUpper)
    }
}

extension IgnoreRules {
    /// The default rules of DESIGN.md decision 2: editor swap, lock, backup and atomic-save
    /// files, partial downloads, rsync/Foundation/VS Code temporaries, `.DS_Store`, and the
    /// daemon's own `.ubq-` staging files. Add `.ubqignore` rules on top with `adding(_:)`.
    public static let editorAndSyncTemporaries = DefaultTemporaries.rules()
}
