import Crypto

/// The `sha256` field of `nska-json-v1`: the file's SHA-256 in lower-case hex. Computed here,
/// not in `KeyedArchive`, which stays a pure target without dependencies.
enum ArchiveDigest {
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}
