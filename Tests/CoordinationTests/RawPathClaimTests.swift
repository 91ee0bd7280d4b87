import Coordination
import Foundation
import Testing

/// Names that are not UTF-8 are claimed by their bytes (`coordinate(…ItemAtPath:)`): a URL
/// on Linux cannot hold them, and "caf\u{E9}" and "caf\u{E8}" in Latin-1 would both become
/// "caf\u{FFFD}" in one, and one claim.
@Suite("Claims on paths given as bytes")
struct RawPathClaimTests {
    @Test func theSameBytesAreExcludedAndOtherBytesAreNot() async throws {
        let sandbox = try Sandbox()
        let holder = try FileCoordinator(lockDirectory: sandbox.locks)
        let other = try FileCoordinator(lockDirectory: sandbox.locks, timeout: .milliseconds(200))
        let folder = Array(sandbox.documents.path.utf8) + Array("/caf".utf8)
        let e9 = folder + [0xE9], e8 = folder + [0xE8]

        try await holder.coordinate(writingItemAtPath: e9, byAsyncAccessor: { (path: [UInt8]) async throws in
            #expect(path == e9, "the accessor gets the bytes")
            #expect(try await other.coordinate(writingItemAtPath: e8, byAsyncAccessor: { $0 }) == e8, "another name is not excluded")
            let refused = await #expect(throws: CoordinationError.self) {
                try await other.coordinate(readingItemAtPath: e9, byAsyncAccessor: { _ in })
            }
            #expect(refused?.code == .timedOut)
        })
        #expect(try await other.coordinate(readingItemAtPath: e9, byAsyncAccessor: { $0 }) == e9, "released")
    }
}
