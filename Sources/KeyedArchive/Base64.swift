/// Base64 (RFC 4648, standard alphabet, padded), used by XML `<data>` and the JSON `$data`.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Maps each byte to its 6-bit value, or 0xFF for bytes outside the alphabet.
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if chunk > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if chunk > 2 { group |= UInt32(bytes[index + 2]) }
            for slot in 0..<4 {
                out.append(slot <= chunk ? alphabet[Int(group >> UInt32(18 - 6 * slot) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes base64, ignoring whitespace (XML wraps `<data>` lines); nil if invalid.
    public static func decode(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count / 4 * 3)
        var group: UInt32 = 0, filled = 0, padding = 0
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte == UInt8(ascii: "=") { padding += 1; continue }
            let value = reverse[Int(byte)]
            guard value != 0xFF, padding == 0 else { return nil }
            group = group << 6 | UInt32(value)
            filled += 1
            if filled == 4 {
                out.append(contentsOf: [UInt8(group >> 16 & 0xFF), UInt8(group >> 8 & 0xFF), UInt8(group & 0xFF)])
                group = 0
                filled = 0
            }
        }
        switch filled {
        case 0: break
        case 2: out.append(UInt8(group >> 4 & 0xFF))
        case 3: out.append(contentsOf: [UInt8(group >> 10 & 0xFF), UInt8(group >> 2 & 0xFF)])
        default: return nil
        }
        return padding <= 2 ? out : nil
    }
}
