import APIModel
import SyncEngine
import SyncPlanning
import Testing

@testable import UbiquityDaemon

/// What `POST /v1/resolve` makes of its body before the engine sees it.
@Suite struct ResolveRequestTests {
    let item = VersionedItem(container: "iCloud.org.ubiquity.Default", path: "Documents/doc.txt")

    @Test func onlyNamesTheConflictVersionsToResolve() throws {
        let request = ResolveRequest(item: item, keep: "current", only: ["9f2c3a1b7e5d4c60:3", "41aa07c2d9e0b318:7"])
        let expected = try ["9f2c3a1b7e5d4c60:3", "41aa07c2d9e0b318:7"].map { try #require(VersionID($0)) }
        #expect(try SyncRoutes.resolution(request).get() == .resolving(expected))
    }

    @Test(arguments: [
        (ResolveRequest(item: .init(container: "c", path: "p"), keep: "all", only: ["9f2c3a1b7e5d4c60:3"]), "--keep current"),
        (ResolveRequest(item: .init(container: "c", path: "p"), keep: "current", only: []), "names no version"),
        (ResolveRequest(item: .init(container: "c", path: "p"), keep: "current", only: ["nine"]), "\"nine\" is not a version id"),
        (ResolveRequest(item: .init(container: "c", path: "p"), keep: "newest"), "not \"newest\""),
        (ResolveRequest(item: .init(container: "c", path: "p"), keep: "current", only: ["9f2c3a1b7e5d4c60:3"], removeOtherVersions: true),
         "cannot go with --only"),
    ])
    func aRequestThatMakesNoSenseSaysWhy(request: ResolveRequest, message: String) {
        guard case .failure(let refusal) = SyncRoutes.resolution(request) else {
            Issue.record("accepted: \(request)")
            return
        }
        #expect(refusal.text.contains(message), "\(refusal.text)")
    }

    @Test func withoutOnlyKeepIsTakenAsItWas() throws {
        #expect(try SyncRoutes.resolution(ResolveRequest(item: item, keep: "all")).get() == .all)
        #expect(try SyncRoutes.resolution(ResolveRequest(item: item, keep: "current")).get() == .current)
    }
}
