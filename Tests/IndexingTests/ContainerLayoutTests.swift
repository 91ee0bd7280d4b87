import Glibc
import RawPaths
import Testing
import UbiquitySettings

@testable import Indexing

@Suite struct ContainerLayoutTests {
    let layout = ContainerLayout(root: "/r")
    let container = try! ContainerID("iCloud.org.ubiquity.Tests")

    /// A scan starts at the deepest folder whose absolute path is shorter than PATH_MAX.
    @Test func aPathTooLongToStartAScanAtIsReachedFromTheDeepestFolderAboveThatFits() {
        let prefix = layout.folder(of: container).bytes.count + 1  // "/r/iCloud~…/"
        let fits = String(repeating: "a", count: Int(PATH_MAX) - 1 - prefix)  // 4095 bytes in all
        let short = ContainerLayout.Location(container: container, relativePath: RawPath(fits))
        #expect(layout.reachable(short) == short)
        #expect(layout.absolute(short).bytes.count == Int(PATH_MAX) - 1)

        let tooLong = ContainerLayout.Location(container: container, relativePath: RawPath(fits + "/b/c"))
        #expect(layout.absolute(ContainerLayout.Location(container: container, relativePath: RawPath(fits + "/b"))).bytes.count == Int(PATH_MAX) + 1)
        #expect(layout.reachable(tooLong) == short)
        // One byte more is PATH_MAX with the NUL: too long.
        let oneMore = ContainerLayout.Location(container: container, relativePath: RawPath(fits + "b"))
        #expect(layout.reachable(oneMore).relativePath.isEmpty)
    }

    @Test func theContainerFolderIsAlwaysReachable() {
        let far = ContainerLayout.Location(container: container, relativePath: RawPath(String(repeating: "x", count: 5000)))
        #expect(layout.reachable(far).relativePath.isEmpty)
    }
}
