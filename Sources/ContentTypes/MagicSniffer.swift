import CMagic

/// libmagic, asked for MIME types only: the last resort for binary data that
/// shared-mime-info's magic rules do not recognize (`ContentTypeDetector.sniff`). Owns one
/// `magic_t` cookie.
///
/// libmagic is not thread-safe per cookie: use an instance from one thread at a time.
/// Not `Sendable` for that reason; each `ContentTypeDetector` owns its own.
final class MagicSniffer {
    private let cookie: magic_t

    init() throws(ContentTypeError) {
        guard let cookie = magic_open(MAGIC_MIME_TYPE) else {
            throw ContentTypeError(code: .magicUnavailable, path: "libmagic",
                message: "libmagic could not be opened (magic_open failed: out of memory?)")
        }
        if magic_load(cookie, nil) != 0 {
            let reason = magic_error(cookie).map { String(cString: $0) } ?? "unknown error"
            magic_close(cookie)
            throw ContentTypeError(code: .magicUnavailable, path: "/usr/share/misc/magic.mgc",
                message: "libmagic could not load its database (\(reason)). Install it with: sudo apt-get install libmagic-mgc")
        }
        self.cookie = cookie
    }

    deinit {
        magic_close(cookie)
    }

    /// The MIME type libmagic sees in `bytes`, in shared-mime-info spelling; nil on error.
    func mimeType(of bytes: [UInt8]) -> String? {
        let result = bytes.withUnsafeBytes { buffer in
            magic_buffer(cookie, buffer.baseAddress, buffer.count)
        }
        guard let result else { return nil }
        let mime = String(cString: result)
        return Self.libmagicSpellings[mime] ?? mime
    }

    /// Names libmagic prints that shared-mime-info spells differently and has no alias for.
    static let libmagicSpellings: [String: String] = [
        "text/x-shellscript": "application/x-shellscript",
        "text/x-script.python": "text/x-python",
        "text/x-perl": "application/x-perl",
        "text/x-ruby": "application/x-ruby",
        "text/x-php": "application/x-php",
        "application/x-pie-executable": "application/x-executable",
        "inode/x-empty": "application/x-zerosize",
        "text/x-c": "text/x-csrc",
        "text/x-c++": "text/x-c++src",
    ]
}
