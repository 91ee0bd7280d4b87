/// A fast reader for plain log lines, beside `JSONDecoder`, which stays the authority: a
/// flat object of strings without escapes, integers, arrays of such strings, booleans and `null`,
/// each key once, as the format's writers produce them. It gives up (nil) on anything
/// else, and the line goes to `JSONDecoder`, so any line it reads it reads as the decoder
/// would (`LogLineScannerTests` compare both over generated and mangled lines).
///
/// Why: a restart reads every log from the start. For 214,000 lines (100,000 files, most
/// edited once), `JSONDecoder` took 1.55 s of the sync thread's first pass, by `perf`.
struct LogLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    /// The fields as read, each once.
    fileprivate struct Fields {
        var seq: UInt64?
        var time: Int64?
        var path: String?
        var parents: [String]?
        var op: String?
        var kind: Value<String>?
        var mode: Value<UInt32>?
        var sha256: Value<String>?
        var size: Value<Int64>?
        var mtime: Value<Int64>?
        var target: Value<String>?
        var movedFrom: Value<String>?
        var forgets: Value<Bool>?
    }

    /// An optional field's value, `null` included: read once, as the required ones.
    fileprivate enum Value<T> {
        case null
        case some(T)

        var value: T? {
            if case .some(let value) = self { value } else { nil }
        }
    }

    static func scan(_ line: ArraySlice<UInt8>) -> LogLine? {
        line.withUnsafeBufferPointer { bytes in
            var scanner = LogLineScanner(bytes: bytes)
            return scanner.object()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func object() -> LogLine? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var line = Fields()
        if !take(UInt8(ascii: "}")) {
            repeat {
                guard let key = rawString(), take(UInt8(ascii: ":")), member(key, into: &line) else { return nil }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        guard position == bytes.count else { return nil }
        return line.logLine
    }

    /// Reads the value of the member named `key`; false if it cannot, or read it before.
    private mutating func member(_ key: UnsafeBufferPointer<UInt8>, into line: inout Fields) -> Bool {
        // A key that is not UTF-8 fails the whole line with the decoder too.
        guard let name = String(validating: key, as: UTF8.self) else { return false }
        switch name {
        case "seq": return once(&line.seq) { $0.unsigned() }
        case "time": return once(&line.time) { $0.integer() }
        case "path": return once(&line.path) { $0.string() }
        case "parents": return once(&line.parents) { $0.strings() }
        case "op": return once(&line.op) { $0.string() }
        case "kind": return once(&line.kind) { $0.optional { $0.string() } }
        case "mode": return once(&line.mode) { $0.optional { $0.unsigned().flatMap { UInt32(exactly: $0) } } }
        case "sha256": return once(&line.sha256) { $0.optional { $0.string() } }
        case "size": return once(&line.size) { $0.optional { $0.integer() } }
        case "mtime": return once(&line.mtime) { $0.optional { $0.integer() } }
        case "target": return once(&line.target) { $0.optional { $0.string() } }
        case "movedFrom": return once(&line.movedFrom) { $0.optional { $0.string() } }
        case "forgets": return once(&line.forgets) { $0.optional { $0.boolean() } }
        default: return skipScalar()  // unknown fields are ignored (MIRROR-FORMAT.md)
        }
    }

    private mutating func once<T>(_ field: inout T?, _ read: (inout LogLineScanner) -> T?) -> Bool {
        guard field == nil, let value = read(&self) else { return false }
        field = value
        return true
    }

    private mutating func optional<T>(_ read: (inout LogLineScanner) -> T?) -> Value<T>? {
        if literal("null") { return .null }
        return read(&self).map { .some($0) }
    }

    // MARK: Values

    /// The bytes of a string with no escape and no control character, without its quotes.
    private mutating func rawString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { return nil }
            position += 1
        }
        return nil
    }

    /// A string, if its bytes are UTF-8.
    private mutating func string() -> String? {
        rawString().flatMap { String(validating: $0, as: UTF8.self) }
    }

    private mutating func strings() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var strings: [String] = []
        if take(UInt8(ascii: "]")) { return strings }
        repeat {
            guard let string = string() else { return nil }
            strings.append(string)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? strings : nil
    }

    private mutating func integer() -> Int64? {
        skipWhitespace()
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard let magnitude = digits() else { return nil }
        return negative ? (magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil) : Int64(exactly: magnitude)
    }

    private mutating func unsigned() -> UInt64? {
        skipWhitespace()
        return digits()
    }

    /// Digits without a sign, fraction or exponent, and no leading zero (JSON has none).
    private mutating func digits() -> UInt64? {
        let start = position
        var value: UInt64 = 0
        while position < bytes.count, let digit = Self.digit(bytes[position]) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            position += 1
        }
        let count = position - start
        guard count > 0, count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // A fraction or an exponent follows: the decoder's to judge.
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") { return nil }
        return value
    }

    /// Skips a string, a number or a literal; false for anything else (the decoder reads it).
    private mutating func skipScalar() -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return integer() != nil
        }
    }

    private mutating func boolean() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    // MARK: Bytes

    private mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        // `nullx` is no literal: what follows must end the value.
        let end = position + count
        guard end == bytes.count || !Self.isWordByte(bytes[end]) else { return false }
        position = end
        return true
    }

    /// True (and consumed) if the next byte but blanks is `byte`.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        digit(byte) != nil || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }
}

extension LogLineScanner.Fields {
    /// The line, if every field the format requires is there.
    fileprivate var logLine: LogLine? {
        guard let seq, let time, let path, let parents, let op else { return nil }
        return LogLine(
            seq: seq, time: time, path: path, parents: parents, op: op, kind: kind?.value, mode: mode?.value, sha256: sha256?.value,
            size: size?.value, mtime: mtime?.value, target: target?.value, movedFrom: movedFrom?.value, forgets: forgets?.value)
    }
}
