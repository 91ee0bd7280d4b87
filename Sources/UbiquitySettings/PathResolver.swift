/// Turns a path as a user wrote it into an absolute, lexically normalized one.
///
/// - A leading `~`, `$HOME` or `${HOME}` becomes the home folder (`~user` is refused: name the
///   folder in full instead).
/// - A relative path is taken against ``base``: the current directory for flags and the
///   environment, the configuration file's folder for paths in that file.
/// - `.` and empty components are dropped and `..` removes the component before it, without
///   touching the disk (symlinks are not resolved), so `a/../b` is `b`.
struct PathResolver: Sendable {
    /// The home folder, from `HOME`; nil when unset or empty.
    var home: String?
    /// The folder relative paths are taken against; nil when unknown.
    var base: String?

    /// `raw` as an absolute path, or an error naming `source` and the fix.
    func resolve(_ raw: String, from source: SettingSource) throws(SettingsError) -> String {
        if raw.isEmpty {
            throw source.error(.invalidValue, "\(source.phrase) is empty; give a folder path")
        }
        let expanded = try expandHome(raw, from: source)
        if expanded.hasPrefix("/") { return Self.normalize(expanded) }
        guard let base else {
            throw source.error(
                .invalidValue,
                "\(source.phrase) is the relative path '\(raw)' but the current directory is "
                    + "unknown; give an absolute path")
        }
        return Self.normalize(base + "/" + expanded)
    }

    private func expandHome(_ raw: String, from source: SettingSource) throws(SettingsError) -> String {
        guard let rest = Self.afterHomePrefix(raw) else {
            if raw.hasPrefix("~") {
                throw source.error(
                    .invalidValue,
                    "\(source.phrase) is '\(raw)': only '~' and '~/' are expanded, not '~user'; "
                        + "write the folder in full")
            }
            return raw
        }
        guard let home else {
            throw source.error(
                .missingEnvironment,
                "\(source.phrase) is '\(raw)' but HOME is not set; set HOME or write the folder in full")
        }
        return home + rest
    }

    /// What follows `~`, `$HOME` or `${HOME}` at the start of `raw` (empty or starting with
    /// `/`), or nil when `raw` does not start with one of them.
    static func afterHomePrefix(_ raw: String) -> String? {
        for prefix in ["~", "$HOME", "${HOME}"] where raw.hasPrefix(prefix) {
            let rest = raw.dropFirst(prefix.count)
            if rest.isEmpty || rest.hasPrefix("/") { return String(rest) }
        }
        return nil
    }

    /// `path` (absolute) without `.`, `..`, doubled or trailing slashes.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder holding `file` (an absolute path).
    static func folder(of file: String) -> String {
        guard let slash = file.lastIndex(of: "/"), slash != file.startIndex else { return "/" }
        return String(file[..<slash])
    }

    /// Whether `inner` is `outer` or lies below it (both normalized).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        inner == outer || outer == "/" || inner.hasPrefix(outer + "/")
    }
}
