import TOMLKit

/// What one configuration file says, paths already absolute. `docs/config.sample.toml` shows
/// every key.
struct ConfigFile: Sendable, Equatable {
    /// The keys this version understands. Anything else is an error, so typos surface.
    enum Key: String, CaseIterable, Sendable {
        case root, mirror, container, ignore, sync
        case stateDir = "state_dir"
        case runtimeDir = "runtime_dir"
        case logLevel = "log_level"
        case settleMs = "settle_ms"
        case deviceName = "device_name"
    }

    /// The file these values came from (absolute).
    var path: String
    var root: String?
    var mirror: String?
    var stateDirectory: String?
    var runtimeDirectory: String?
    var logLevel: String?
    var settleMilliseconds: Int?
    var deviceName: String?
    var ignorePatterns: [String] = []
    /// From the `[sync]` table; nil when the file has none.
    var sync: SyncSettings?
    /// From the `[[container]]` tables, in file order, without duplicates.
    var containerIDs: [ContainerID] = []

    /// Parses `text`, the contents of the file at `path` (absolute). Relative paths in it are
    /// taken against the file's folder; `~` and `$HOME` against `home`.
    static func parse(_ text: String, path: String, home: String?) throws(SettingsError) -> ConfigFile {
        let reader = TOMLReader(table: try parseTable(text, path: path), path: path, text: text)
        let paths = PathResolver(home: home, base: PathResolver.folder(of: path))
        var file = ConfigFile(path: path)
        for name in reader.table.keys {
            do {
                try file.read(name, from: reader, paths: paths)
            } catch {
                throw reader.locate(error, key: name)
            }
        }
        return file
    }

    private static func parseTable(_ text: String, path: String) throws(SettingsError) -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw SettingsError(
                code: .syntax,
                message: "syntax error: \(error.description); fix the TOML there "
                    + "(see docs/config.sample.toml)",
                file: path, line: error.source.begin.line, column: error.source.begin.column)
        } catch {
            throw SettingsError(code: .syntax, message: "cannot parse: \(error)", file: path)
        }
    }

    private mutating func read(_ name: String, from reader: TOMLReader, paths: PathResolver) throws(SettingsError) {
        guard let key = Key(rawValue: name) else { throw reader.unknownKey(name) }
        let source = SettingSource.file(path: path, key: name)
        switch key {
        case .root: root = try reader.path(name, paths)
        case .mirror: mirror = try reader.path(name, paths)
        case .stateDir: stateDirectory = try reader.path(name, paths)
        case .runtimeDir: runtimeDirectory = try reader.path(name, paths)
        case .logLevel: logLevel = try Settings.validLogLevel(try reader.string(name), from: source)
        case .settleMs: settleMilliseconds = try Settings.validSettle(try reader.int(name), from: source)
        case .ignore: ignorePatterns = try reader.stringArray(name)
        case .container: containerIDs = try reader.containers(name)
        case .sync: sync = try reader.sync(name)
        case .deviceName: deviceName = try DeviceName.valid(try reader.string(name), from: source)
        }
    }
}

/// Typed access to a parsed table, with errors that name the file, key, line and fix.
struct TOMLReader {
    let table: TOMLTable
    let path: String
    let text: String

    func string(_ key: String) throws(SettingsError) -> String {
        guard let value = table[key]?.string else { throw wrongType(key, expected: "a string") }
        return value
    }

    func int(_ key: String) throws(SettingsError) -> Int {
        guard let value = table[key]?.int else { throw wrongType(key, expected: "an integer") }
        return value
    }

    func path(_ key: String, _ paths: PathResolver) throws(SettingsError) -> String {
        try paths.resolve(try string(key), from: .file(path: path, key: key))
    }

    func stringArray(_ key: String) throws(SettingsError) -> [String] {
        let fix = "write e.g. \(key) = [\"*.bak\"]"
        guard let array = table[key]?.array else { throw wrongType(key, expected: "an array of strings", fix: fix) }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard let string = element.string else {
                let found = KeySuggestion.withArticle("\(element.type)")
                throw SettingsError(
                    code: .wrongType,
                    message: "key '\(key)' must be an array of strings, but element \(index + 1) is \(found); \(fix)",
                    file: path, key: key, line: line(of: key))
            }
            strings.append(string)
        }
        return strings
    }

    /// The ids of a `[[container]]` array of tables, each holding only `id`.
    func containers(_ key: String) throws(SettingsError) -> [ContainerID] {
        let fix = "write each one as [[\(key)]] followed by id = \"...\""
        guard let array = table[key]?.array else {
            throw wrongType(key, expected: "an array of tables", fix: fix)
        }
        var ids: [ContainerID] = []
        for element in array {
            guard let entry = element.table else { throw wrongType(key, expected: "an array of tables", fix: fix) }
            let id = try containerID(in: TOMLReader(table: entry, path: path, text: text), key: key)
            if !ids.contains(id) { ids.append(id) }
        }
        return ids
    }

    private func containerID(in entry: TOMLReader, key: String) throws(SettingsError) -> ContainerID {
        if let extra = entry.table.keys.first(where: { $0 != "id" }) {
            throw entry.unknownKey(extra, context: "[[\(key)]]", known: ["id"])
        }
        guard entry.table["id"] != nil else {
            throw SettingsError(
                code: .invalidValue, message: "a [[\(key)]] table has no id; add id = \"iCloud.com.example.App\"",
                file: path, key: key, line: line(of: key))
        }
        let raw = try entry.string("id")
        do {
            return try ContainerID(raw)
        } catch {
            throw SettingsError(
                code: .invalidContainerID, message: "[[\(key)]] id: \(error.message)",
                file: path, key: "id", line: line(of: "id", containing: raw))
        }
    }

    func wrongType(_ key: String, expected: String, fix: String? = nil) -> SettingsError {
        let found = table[key].map { KeySuggestion.withArticle("\($0.type)") } ?? "missing"
        let message = "key '\(key)' must be \(expected), but it is \(found)" + (fix.map { "; \($0)" } ?? "")
        return SettingsError(
            code: .wrongType, message: message,
            file: path, key: key, line: line(of: key))
    }

    func unknownKey(
        _ key: String, context: String = "",
        known: [String] = ConfigFile.Key.allCases.map(\.rawValue)
    ) -> SettingsError {
        var message = "unknown key '\(key)'" + (context.isEmpty ? "" : " in \(context)")
        if let hint = KeySuggestion.hint(for: key, known: known) { message += " (\(hint))" }
        message += "; known keys: " + known.sorted().joined(separator: ", ")
        return SettingsError(code: .unknownKey, message: message, file: path, key: key, line: line(of: key))
    }

    /// `error` with the line of `key` added when it has none yet.
    func locate(_ error: SettingsError, key: String) -> SettingsError {
        var located = error
        if located.line == nil { located.line = line(of: error.key ?? key) ?? line(of: key) }
        return located
    }

    /// The first line (1-based) that assigns `key` (with `value` in it, if given) or opens a
    /// table named `key`, if any. TOMLKit keeps no positions for keys, so this looks at the text.
    func line(of key: String, containing value: String? = nil) -> Int? {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" || $0 == "[" })
            guard trimmed.hasPrefix(key), value.map({ line.contains($0) }) ?? true else { continue }
            let next = trimmed.dropFirst(key.count).first(where: { $0 != " " && $0 != "\t" })
            if next == "=" || next == "]" || next == "." { return index + 1 }
        }
        return nil
    }
}
