// libFuzzer harness for the KeyedArchive decoder. Built by run.sh together with the library
// sources as one module (so no `import`): every input goes through the whole read path
// (format detection, binary/XML plist, keyed graph, JSON and outline rendering) and, when it decodes,
// through the writers and back, which must succeed on anything the reader accepted.

@_cdecl("LLVMFuzzerTestOneInput")
public func archiveFuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let limits = DecodingLimits(maxDepth: 256, maxRenderedNodes: 200_000)
    _ = ArchiveJSON.render(archiveBytes: bytes, fileName: "fuzz", limits: limits)
    _ = ArchiveOutline.render(archiveBytes: bytes, limits: limits)
    guard let graph = try? KeyedUnarchiver.decode(bytes, limits: limits) else { return 0 }
    for format in PlistFormat.allCases {
        guard let written = try? KeyedArchiver.encode(graph, format: format) else { continue }
        // What we wrote from a graph we read must read back.
        if (try? KeyedUnarchiver.decode(written, limits: limits)) == nil {
            fatalError("re-encoded archive (\(format)) does not decode")
        }
    }
    return 0
}
