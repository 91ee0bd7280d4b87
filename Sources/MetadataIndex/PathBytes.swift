import Foundation
import SystemPackage

extension FilePath {
    /// The path's raw bytes, exactly as the filesystem has them.
    public var rawBytes: [UInt8] {
        withPlatformString { pointer in
            Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
    }

    public init(rawBytes: some Collection<UInt8>) {
        let chars = rawBytes.map { CChar(bitPattern: $0) } + [0]
        self = chars.withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }

    /// A readable rendering: invalid UTF-8 becomes U+FFFD. For display and text search
    /// only; the raw bytes stay the identity.
    public var readable: String { String(decoding: rawBytes, as: UTF8.self) }

    /// A `file://` URL that keeps every byte (percent-encoded), with a trailing slash for
    /// folders as Foundation writes them.
    public func fileURLString(isFolder: Bool) -> String {
        var url = "file://"
        for byte in rawBytes {
            if Self.urlSafe.contains(byte) {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                url += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return isFolder && !url.hasSuffix("/") ? url + "/" : url
    }

    private static let urlSafe: Set<UInt8> = Set(
        Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
            + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + "-._~/!$&'()*+,;=:@".utf8)
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
