import ArgumentParser

/// `ubq`: the command-line helper. Each subcommand is a thin client of `ubqd`'s local
/// API, except the ones that need no daemon (`predicate`, `archive`).
public struct UbqCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "ubq",
        abstract: "Query and manage Ubiquity containers (talks to ubqd).",
        subcommands: [
            ListCommand.self, MetadataCommand.self, ContainersCommand.self, StatusCommand.self, PredicateCommand.self,
            ArchiveCommand.self, CoordinateCommand.self, DiaryCommand.self, SyncCommand.self, ConflictsCommand.self,
            VersionsCommand.self, DeletedCommand.self, ResolveCommand.self, RestoreCommand.self, PresentersCommand.self,
        ])

    public init() {}
}
