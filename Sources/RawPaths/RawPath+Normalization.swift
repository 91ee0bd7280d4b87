extension RawPath {
    /// `.` and `..` resolved as text (no symlinks followed), for absolute paths a user typed.
    public func lexicallyNormalized() -> RawPath {
        var names: [ArraySlice<UInt8>] = []
        for name in components {
            if name.elementsEqual([UInt8(ascii: ".")]) { continue }
            if name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !names.isEmpty { names.removeLast() }
                continue
            }
            names.append(name)
        }
        let joined = RawPath(joining: names)
        return isAbsolute ? RawPath(bytes: [Self.slash] + joined.bytes) : joined
    }

    /// A `file://` URL that keeps every byte (percent-encoded where needed), with a
    /// trailing slash for folders as Foundation writes them.
    public func fileURLString(isFolder: Bool) -> String {
        var url = Array("file://".utf8)
        url.reserveCapacity(7 + bytes.count + bytes.count / 4 + 1)
        Self.appendPercentEncoded(bytes[...], to: &url)
        if isFolder && url.last != UInt8(ascii: "/") { url.append(UInt8(ascii: "/")) }
        return String(decoding: url, as: UTF8.self)
    }

    /// Appends `bytes` as a file URL writes them: each byte outside the URL-safe set
    /// percent-encoded, byte by byte, so the encoding of a path is the encodings of its
    /// parts joined (`/` is kept). Bytes of one concrete type: a generic parameter is not
    /// specialized across modules, and went through a witness table per byte.
    public static func appendPercentEncoded(_ bytes: ArraySlice<UInt8>, to url: inout [UInt8]) {
        for byte in bytes {
            if urlSafe[Int(byte)] {
                url.append(byte)
            } else {
                url.append(UInt8(ascii: "%"))  // three appends: an array literal here was an allocation a byte
                url.append(hexDigits[Int(byte >> 4)])
                url.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// The path of a `file://` URL made by `fileURLString`.
    public init?(fileURLString url: String) {
        guard url.hasPrefix("file://") else { return nil }
        var bytes: [UInt8] = []
        var iterator = Array(url.utf8.dropFirst(7)).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    /// Which bytes a file URL keeps as they are (indexed by byte; every other byte is
    /// percent-encoded). A table, not a set: this runs for every item the index records.
    private static let urlSafe: [Bool] = {
        let safe = Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array("-._~/!$&'()*+,;=:@".utf8)
        var table = [Bool](repeating: false, count: 256)
        for byte in safe { table[Int(byte)] = true }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
