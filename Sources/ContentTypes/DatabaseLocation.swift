import Foundation

// Where the database lives: `$XDG_DATA_HOME/mime` (default `~/.local/share/mime`), then
// each `$XDG_DATA_DIRS` entry + `/mime` (default `/usr/local/share:/usr/share`), most
// important first, as the shared-mime-info spec orders them.

extension MimeDatabase {
    /// Reads the database from `directories` (most important first), or from the XDG
    /// default folders when nil. Explicit folders must each hold a `globs2`; among the
    /// defaults, folders without one are skipped, and at least one must have it.
    public init(directories: [String]? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(ContentTypeError) {
        let chosen = try Self.resolve(directories, environment: environment)
        var files: [(globs2: String, subclasses: String, aliases: String)] = []
        var magic: [[UInt8]] = []
        for directory in chosen {
            files.append((String(decoding: try Self.read(directory, "globs2", required: true), as: UTF8.self),
                          String(decoding: try Self.read(directory, "subclasses", required: false), as: UTF8.self),
                          String(decoding: try Self.read(directory, "aliases", required: false), as: UTF8.self)))
            magic.append(try Self.read(directory, "magic", required: false))
        }
        self.init(files: files, magic: magic, directories: chosen)
    }

    /// The XDG search order of database folders, most important first.
    public static func defaultDirectories(environment: [String: String]) -> [String] {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let dataHome = nonEmpty(environment["XDG_DATA_HOME"]) ?? home + "/.local/share"
        let dataDirs = (nonEmpty(environment["XDG_DATA_DIRS"]) ?? "/usr/local/share/:/usr/share/")
            .split(separator: ":").map(String.init)
        return ([dataHome] + dataDirs).map { trimmedSlash($0) + "/mime" }
    }

    private static func resolve(_ directories: [String]?, environment: [String: String]) throws(ContentTypeError) -> [String] {
        let fm = FileManager.default
        if let directories {
            for directory in directories where !fm.fileExists(atPath: directory + "/globs2") {
                let what = fm.fileExists(atPath: directory) ? "\(directory)/globs2 is missing" : "folder \(directory) does not exist"
                throw ContentTypeError(code: .databaseMissing, path: directory,
                    message: "shared-mime-info database not found: \(what). Run update-mime-database on it, or pass another folder. \(ContentTypeError.installHint)")
            }
            return directories
        }
        let candidates = defaultDirectories(environment: environment)
        let found = candidates.filter { fm.fileExists(atPath: $0 + "/globs2") }
        guard found.isEmpty else { return found }
        throw ContentTypeError(code: .databaseMissing, path: "/usr/share/mime/globs2",
            message: "shared-mime-info database not found: /usr/share/mime/globs2 is missing (searched \(candidates.joined(separator: ", "))). \(ContentTypeError.installHint)")
    }

    private static func read(_ directory: String, _ name: String, required: Bool) throws(ContentTypeError) -> [UInt8] {
        let path = directory + "/" + name
        if !required && !FileManager.default.fileExists(atPath: path) { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ContentTypeError(code: .databaseUnreadable, path: path,
                message: "cannot read \(path): check its permissions, or reinstall: sudo apt-get install --reinstall shared-mime-info")
        }
        return [UInt8](data)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    private static func trimmedSlash(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
