import ArgumentParser
import Glibc

/// The command line and the current folder as the kernel gives them, byte for byte.
/// ArgumentParser hands out `String`s, which hold a name that is not UTF-8 only with U+FFFD
/// in place of its bad bytes: `ubq mdls` would then ask for another file, and `ubq
/// coordinate` run its command on one.
enum RawArguments {
    /// Every argument, the program's name first.
    static var all: [[UInt8]] {
        (0..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) }
        }
    }

    /// The bytes `parsed` was decoded from: the argument that decodes to it. Throws when two
    /// arguments with different bytes decode to it (which one was meant cannot be told).
    static func bytes(of parsed: String, in arguments: [[UInt8]] = all) throws -> [UInt8] {
        let matches = Set(arguments.dropFirst().filter { String(decoding: $0, as: UTF8.self) == parsed })
        guard matches.count <= 1 else {
            throw ValidationError("two arguments read as \(parsed) once their bytes that are not UTF-8 are replaced: give that path alone, or rename the file")
        }
        return matches.first ?? Array(parsed.utf8)
    }

    /// The arguments before the first `--` (all, when there is none), the program's name first.
    static func beforeSeparator(in arguments: [[UInt8]] = all) -> [[UInt8]] {
        guard let separator = arguments.dropFirst().firstIndex(of: Array("--".utf8)) else { return arguments }
        return Array(arguments[..<separator])
    }

    /// The arguments after the first `--`, or nil when there is none.
    static func afterSeparator(in arguments: [[UInt8]] = all) -> [[UInt8]]? {
        guard let separator = arguments.dropFirst().firstIndex(of: Array("--".utf8)) else { return nil }
        return Array(arguments[(separator + 1)...])
    }

    /// `path` made absolute against the current folder, as bytes.
    static func absolute(_ path: [UInt8]) -> [UInt8] {
        if path.first == UInt8(ascii: "/") { return path }
        return currentFolder() + [UInt8(ascii: "/")] + path
    }

    /// The current folder's path (getcwd), bytes and all.
    static func currentFolder() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return Array(".".utf8) }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }
}
