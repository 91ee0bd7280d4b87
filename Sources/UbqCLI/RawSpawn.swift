import ArgumentParser
import Glibc

/// Runs a command given as bytes (`RawArguments`), so a file name that is not UTF-8 reaches
/// it as it was typed: Foundation's `Process` takes `String`s.
enum RawSpawn {
    /// Runs `arguments` through `/usr/bin/env` (which finds the program in PATH and says so
    /// when it cannot, exit 127) and waits: its exit status, or 128 + the signal that ended it.
    static func run(_ arguments: [[UInt8]]) throws -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([Array("env".utf8)] + arguments).map(duplicate) + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let failure = posix_spawn(&pid, "/usr/bin/env", nil, nil, argv, environ)
        guard failure == 0 else {
            throw ValidationError("cannot run \(String(decoding: arguments.first ?? [], as: UTF8.self)): \(String(cString: strerror(failure)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ValidationError("waiting for the command: \(String(cString: strerror(errno)))") }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// A C string holding `bytes`, for `free`.
    private static func duplicate(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let copy = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { memcpy(copy, base, bytes.count) }
        }
        copy[bytes.count] = 0
        return copy
    }
}
