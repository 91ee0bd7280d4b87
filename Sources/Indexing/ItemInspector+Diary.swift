import MetadataIndex
import RawPaths

extension ItemInspector {
    /// Reads a possible diary whole and, if it is one, records its entries and gives the
    /// file's own text content their titles and bodies. A damaged diary stays a plain file
    /// (with what the first read found) and a warning names it and the reason.
    func inspectDiary(_ item: inout ItemSnapshot, prefix: [UInt8], wholeFile: Bool, in folder: RawPath) {
        guard item.signature.size <= DiaryRecognizer.maximumBytes else {
            logger.debug("\(item.absolutePath.readable): larger than \(DiaryRecognizer.maximumBytes) bytes, not read as a diary")
            return
        }
        let bytes: [UInt8]
        if wholeFile {
            bytes = prefix
        } else {
            switch readPrefix(item.relativePath, beneath: folder, count: Int(item.signature.size) + 1) {
            case .success(let read): bytes = read
            case .failure(let error):
                item.readError = error.description
                return
            }
        }
        switch DiaryRecognizer.recognize(bytes, fileName: item.relativePath.lastComponent ?? []) {
        case .notADiary: return
        case .diary(let entries):
            item.diaryEntries = entries.map(DiaryEntryRecord.init)
            item.textContent = DiaryRecognizer.searchableText(entries)
        case .damaged(let reason):
            logger.warning("\(item.absolutePath.readable): indexed as a plain file, its diary entries cannot be read: \(reason)")
        }
    }
}
