// The content rules of the shared-mime-info spec: the binary `magic` file that
// update-mime-database writes beside `globs2`, and how its rules match the first bytes of
// a file. GIO and Qt sniff with these rules; they are plain byte comparisons, where
// libmagic runs dozens of regular expressions, compiled anew on each call, over any text
// (about 1 ms per text file here, against 15 µs for all of these rules).
//
// File format, after the `MIME-Magic\0\n` header:
//   [priority:mime/type]\n
//   [indent]>offset=<2-byte big-endian length><value>[&<mask>][~word-size][+range]\n
// A line indented one more than the line before is a sub-rule of it.

import Glibc

/// One rule: `value` (under `mask`) somewhere in `offset ..< offset + range`, and, if it
/// has sub-rules, at least one of them too.
struct MagicRule: Sendable {
    var offset: Int
    var range: Int
    var value: [UInt8]
    var mask: [UInt8]?
    var subRules: [MagicRule] = []

    func matches(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { matches($0) }
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count > 0, found(in: bytes) else { return false }
        return subRules.isEmpty || subRules.contains { $0.matches(bytes) }
    }

    /// Whether the value is at some start in its range. Most rules fail on every byte of
    /// a text file, some over a range of thousands (`<?xml` within 256 bytes, say), so the
    /// scan skips to each place its first byte occurs (memchr) before comparing the rest;
    /// comparing array slices at every start cost 60–90 µs per text file.
    private func found(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let last = min(offset + range, bytes.count - value.count + 1)
        guard offset < last, let base = bytes.baseAddress else { return false }
        return value.withUnsafeBufferPointer { value in
            guard let mask else { return foundUnmasked(value, in: base, from: offset, to: last) }
            return mask.withUnsafeBufferPointer { mask in
                (offset..<last).contains { start in
                    value.indices.allSatisfy { base[start + $0] & mask[$0] == value[$0] & mask[$0] }
                }
            }
        }
    }

    private func foundUnmasked(_ value: UnsafeBufferPointer<UInt8>, in base: UnsafePointer<UInt8>, from first: Int, to last: Int) -> Bool {
        var start = first
        while start < last {
            guard let hit = memchr(base + start, Int32(value[0]), last - start) else { return false }
            start = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            if memcmp(base + start, value.baseAddress!, value.count) == 0 { return true }
            start += 1
        }
        return false
    }
}

/// The rules of one type, with its priority (0–100).
struct MagicSection: Sendable {
    var priority: Int
    var mimeType: String
    var rules: [MagicRule]
}

/// Every database folder's `magic` rules, highest priority first.
public struct MimeMagic: Sendable {
    private(set) var sections: [MagicSection] = []

    public init() {}

    /// Rules from the `magic` files of several folders, most important first: a type a
    /// more important folder describes keeps only that folder's rules.
    init(files: [[UInt8]]) {
        var described: Set<String> = []
        for file in files {
            let parsed = MagicParser.sections(file)
            sections += parsed.filter { !described.contains($0.mimeType) }
            described.formUnion(parsed.map(\.mimeType))
        }
        // Stable: equal priorities keep the file's order, as update-mime-database wrote it.
        sections = sections.enumerated().sorted { ($0.element.priority, $1.offset) > ($1.element.priority, $0.offset) }.map(\.element)
    }

    /// The MIME type of the highest-priority section whose rules match `bytes`.
    public func mimeType(of bytes: [UInt8]) -> String? {
        sections.first { $0.rules.contains { $0.matches(bytes) } }?.mimeType
    }
}

/// Reads the binary `magic` format. A malformed line ends the file's reading: the
/// sections read before it are kept (the file comes from update-mime-database, so this
/// means a truncated or foreign file, not one to guess about).
enum MagicParser {
    static let header = Array("MIME-Magic\u{0}\n".utf8)

    static func sections(_ file: [UInt8]) -> [MagicSection] {
        guard file.starts(with: header) else { return [] }
        var reader = ByteReader(bytes: file, position: header.count)
        var sections: [MagicSection] = []
        while !reader.atEnd {
            guard let section = section(&reader) else { break }
            if !section.rules.isEmpty { sections.append(section) }
        }
        return sections
    }

    private static func section(_ reader: inout ByteReader) -> MagicSection? {
        guard reader.take(UInt8(ascii: "[")), let priority = reader.number(), reader.take(UInt8(ascii: ":")),
            let name = reader.read(until: UInt8(ascii: "]")), reader.take(UInt8(ascii: "\n"))
        else { return nil }
        var lines: [(indent: Int, rule: MagicRule)] = []
        while !reader.atEnd && reader.peek != UInt8(ascii: "[") {
            switch line(&reader) {
            case .rule(let indent, let rule): lines.append((indent, rule))
            case .skipped: continue
            case .malformed: return nil
            }
        }
        return MagicSection(priority: priority, mimeType: String(decoding: name, as: UTF8.self).lowercased(), rules: tree(lines))
    }

    private enum Line {
        case rule(indent: Int, MagicRule)
        /// `__NOMAGIC__`, or a word size that does not divide the value.
        case skipped
        case malformed
    }

    private static let noMagic = Array("__NOMAGIC__\n".utf8)

    private static func line(_ reader: inout ByteReader) -> Line {
        if reader.take(noMagic) { return .skipped }
        let indent = reader.number() ?? 0
        guard reader.take(UInt8(ascii: ">")), let offset = reader.number(), reader.take(UInt8(ascii: "=")),
            let high = reader.next(), let low = reader.next()
        else { return .malformed }
        let length = Int(high) << 8 | Int(low)
        guard let value = reader.next(length) else { return .malformed }
        var rule = MagicRule(offset: offset, range: 1, value: value, mask: nil)
        var wordSize = 1
        if reader.take(UInt8(ascii: "&")) {
            guard let mask = reader.next(length) else { return .malformed }
            rule.mask = mask
        }
        if reader.take(UInt8(ascii: "~")) { wordSize = reader.number() ?? 1 }
        if reader.take(UInt8(ascii: "+")) { rule.range = max(1, reader.number() ?? 1) }
        guard reader.skipLine() else { return .malformed }
        guard wordSize >= 1, length % wordSize == 0 else { return .skipped }
        rule.value = swappedForLittleEndian(rule.value, wordSize)
        rule.mask = rule.mask.map { swappedForLittleEndian($0, wordSize) }
        return .rule(indent: indent, rule)
    }

    /// Values of 2- or 4-byte words are stored big-endian; a little-endian machine compares
    /// them with each word's bytes reversed (the spec's host-order rule).
    private static func swappedForLittleEndian(_ bytes: [UInt8], _ wordSize: Int) -> [UInt8] {
        guard wordSize > 1, 1.littleEndian == 1 else { return bytes }
        return stride(from: 0, to: bytes.count, by: wordSize).flatMap { bytes[$0..<$0 + wordSize].reversed() }
    }

    /// Nests each line under the nearest line before it with one less indent.
    private static func tree(_ lines: [(indent: Int, rule: MagicRule)]) -> [MagicRule] {
        var index = 0
        return subRules(of: 0, lines, &index)
    }

    private static func subRules(of indent: Int, _ lines: [(indent: Int, rule: MagicRule)], _ index: inout Int) -> [MagicRule] {
        var rules: [MagicRule] = []
        while index < lines.count && lines[index].indent >= indent {
            if lines[index].indent > indent {  // deeper than its parent allows: skip it with its own sub-rules
                index += 1
                continue
            }
            var rule = lines[index].rule
            index += 1
            rule.subRules = subRules(of: indent + 1, lines, &index)
            rules.append(rule)
        }
        return rules
    }
}

/// A cursor over the bytes of a `magic` file.
struct ByteReader {
    let bytes: [UInt8]
    var position: Int

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    mutating func next() -> UInt8? {
        guard let byte = peek else { return nil }
        position += 1
        return byte
    }

    mutating func next(_ count: Int) -> [UInt8]? {
        guard count <= bytes.count - position else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// Consumes `byte` if it comes next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// A decimal number, if one comes next.
    mutating func number() -> Int? {
        var value: Int?
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), (value ?? 0) < Int.max / 10 - 9 {
            value = (value ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            position += 1
        }
        return value
    }

    /// Consumes `expected` if it comes next.
    mutating func take(_ expected: [UInt8]) -> Bool {
        guard bytes[position...].starts(with: expected) else { return false }
        position += expected.count
        return true
    }

    /// The bytes before `terminator`, consuming both; nil if it never comes.
    mutating func read(until terminator: UInt8) -> [UInt8]? {
        guard let end = bytes[position...].firstIndex(of: terminator) else { return nil }
        defer { position = end + 1 }
        return Array(bytes[position..<end])
    }

    /// Skips what is left of the line (extensions a later spec may add) and its newline.
    mutating func skipLine() -> Bool {
        read(until: UInt8(ascii: "\n")) != nil
    }
}
