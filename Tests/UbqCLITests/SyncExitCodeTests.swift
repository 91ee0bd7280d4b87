import APIModel
import Testing

@testable import UbqCLI

/// `ubq sync`'s exit status says whether the pass did what was asked: a script that syncs
/// before it powers off must not take a paused mirror for success.
@Suite struct SyncExitCodeTests {
    static func status(_ phases: [ContainerSyncStatus.Phase], mirror: String? = "/mnt/mirror") -> MirrorStatus {
        let containers = phases.enumerated().map { index, phase in
            var container = ContainerSyncStatus(container: "iCloud.org.example.\(index)")
            container.phase = phase
            return container
        }
        return MirrorStatus(mirror: mirror, device: "d", deviceName: "laptop", containers: containers)
    }

    @Test(arguments: [
        ([ContainerSyncStatus.Phase.idle, .idle], 0),
        ([], 0),
        ([.idle, .syncing], 0),  // another pass began since: this one finished
        ([.idle, .paused], 75),
        ([.paused, .failed], 1),
    ])
    func theWorstContainerDecides(phases: [ContainerSyncStatus.Phase], code: Int) {
        #expect(SyncCommand.exitCode(Self.status(phases)) == Int32(code))
    }

    /// A pass that left items unsynced failed, unless sync is paused (a paused pass did not
    /// get to them: try again later).
    @Test func itemsNotSyncedFailThePassUnlessItIsPaused() {
        var status = Self.status([.idle, .idle])
        status.containers[1].notSynced = 2
        #expect(SyncCommand.exitCode(status) == 1)
        status.containers[0].phase = .paused
        #expect(SyncCommand.exitCode(status) == 75)
    }

    @Test func noMirrorIsAConfigurationError() {
        #expect(SyncCommand.exitCode(Self.status([], mirror: nil)) == 78)
    }
}
