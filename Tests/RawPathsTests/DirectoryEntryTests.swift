import Foundation
import Glibc
import Testing

@testable import RawPaths

/// `DirectoryEntry` reads an entry's fields through its address, never past its name.
@Suite struct DirectoryEntryTests {
    /// An entry whose name ends the last readable page, as a short entry can end the
    /// listing's buffer: loading the whole `dirent` (`entry.pointee`) would fault here.
    @Test func aShortEntryAtTheEndOfReadableMemoryIsReadWithoutGoingPastIt() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
        defer { munmap(memory, 2 * page) }
        #expect(mprotect(memory + page, page, PROT_NONE) == 0)
        let name = Array("a.txt".utf8)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let entry = memory + page - (nameOffset + name.count + 1)
        entry.storeBytes(of: UInt8(DT_REG), toByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_type)!, as: UInt8.self)
        for (index, byte) in (name + [0]).enumerated() { entry.storeBytes(of: byte, toByteOffset: nameOffset + index, as: UInt8.self) }

        let pointer = entry.assumingMemoryBound(to: dirent.self)
        #expect(DirectoryEntry.name(pointer) == name)
        #expect(DirectoryEntry.type(pointer) == Int(DT_REG))
    }

    @Test func aListingGivesEveryNameAsItsBytesAndNotTheDots() throws {
        let folder = NSTemporaryDirectory() + "direntry-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names: [[UInt8]] = [[0x61], Array(repeating: 0x62, count: 255), [0x66, 0xFF, 0x0A, 0x67], Array("-dash".utf8)]
        for name in names {
            let fd = RawPath(folder).appending(name).withCString { open($0, O_CREAT | O_WRONLY, 0o644) }
            #expect(fd >= 0)
            close(fd)
        }
        let handle = try #require(opendir(folder))
        defer { closedir(handle) }
        #expect(Set(DirectoryEntry.names(handle)) == Set(names))
    }
}
