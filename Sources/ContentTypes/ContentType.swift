/// The type of one item, as Spotlight reports it: `kMDItemContentType` (a UTI) and
/// `kMDItemContentTypeTree` (the UTIs it conforms to).
public struct ContentType: Sendable, Hashable, CustomStringConvertible {
    /// The UTI, e.g. `public.plain-text`, or a dynamic one (`org.freedesktop.mime.…`) for a
    /// MIME type Apple declares no UTI for.
    public var identifier: String
    /// `kMDItemContentTypeTree`: starts with `identifier`, then every type it conforms to,
    /// depth first in declaration order, each once, as macOS lists it
    /// (`public.plain-text, public.text, public.data, public.item, public.content`).
    public var tree: [String]
    /// The shared-mime-info type the UTI came from (canonical name), nil for folders and links.
    public var mimeType: String?

    public init(identifier: String, tree: [String], mimeType: String?) {
        self.identifier = identifier
        self.tree = tree
        self.mimeType = mimeType
    }

    /// Conforms to `public.text`: the indexer extracts `kMDItemTextContent`.
    public var isText: Bool { tree.contains("public.text") }

    /// Whether the type is `identifier` or conforms to it.
    public func conforms(to identifier: String) -> Bool { tree.contains(identifier) }

    public var description: String { identifier }

    /// The UTI used for a MIME type Apple declares none for: `org.freedesktop.mime.` + the
    /// type with `/` → `-`, lower-cased, other bytes outside `a-z 0-9 . -` as `-xHH-`
    /// (`text/x-lua` → `org.freedesktop.mime.text-x-lua`).
    public static func dynamicIdentifier(forMIMEType mimeType: String) -> String {
        TypeCatalog.dynamicIdentifier(mimeType)
    }

    /// `public.folder` (a plain directory).
    public static let folder = ContentType(
        identifier: "public.folder", tree: ["public.folder", "public.directory", "public.item"], mimeType: nil)

    /// `public.symlink`: recorded as a link, never followed.
    public static let symlink = ContentType(
        identifier: "public.symlink", tree: ["public.symlink", "public.item"], mimeType: nil)

    /// `public.data`: bytes of no known type, and empty files whose name says nothing.
    public static let data = ContentType(
        identifier: "public.data", tree: ["public.data", "public.item"], mimeType: "application/octet-stream")
}
