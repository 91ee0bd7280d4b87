// swift-tools-version: 6.1
//
// Ubiquity for Linux: the iCloud Documents model as a daemon (`ubqd`), a helper (`ubq`) and a
// Swift library (`Ubiquity`). Targets form a DAG, from pure cores up to thin executables:
//
//   pure:      RawPaths  CivilCalendar  PredicateKit  KeyedArchive  Diary  IgnoreRules  FileEvents  UbiquitySettings  APIModel
//              SyncPlanning  PresenterPlanning
//   C shims:   CInotifyTools  CMagic  CStatx
//   I/O:       Watching  ContentTypes  MetadataIndex  Indexing  Coordination  DaemonClient  SyncEngine
//   services:  UbiquityDaemon            library: Ubiquity          commands: UbqCLI
//   programs:  ubqd  ubq
import PackageDescription

let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let grdbSQLite = Target.Dependency.product(name: "GRDBSQLite", package: "GRDB.swift")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let unixSignals = Target.Dependency.product(name: "UnixSignals", package: "swift-service-lifecycle")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let hummingbirdCore = Target.Dependency.product(name: "HummingbirdCore", package: "hummingbird")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
let toml = Target.Dependency.product(name: "TOMLKit", package: "TOMLKit")
let crypto = Target.Dependency.product(name: "Crypto", package: "swift-crypto")
let system = Target.Dependency.product(name: "SystemPackage", package: "swift-system")

let package = Package(
    name: "Ubiquity",
    products: [
        .library(name: "Ubiquity", targets: ["Ubiquity"]),
        .library(name: "PredicateKit", targets: ["PredicateKit"]),
        .library(name: "KeyedArchive", targets: ["KeyedArchive"]),
        .executable(name: "ubqd", targets: ["ubqd"]),
        .executable(name: "ubq", targets: ["ubq"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        // MARK: Pure cores (no I/O)
        .target(name: "CivilCalendar"),
        .target(name: "PredicateKit", dependencies: ["CivilCalendar"]),
        .target(name: "KeyedArchive", dependencies: ["CivilCalendar"]),
        .target(name: "KeyValueStore", dependencies: ["KeyedArchive"]),
        .target(name: "RawPaths"),
        .target(name: "FileEvents", dependencies: ["RawPaths"]),
        .target(name: "IgnoreRules"),
        .target(name: "APIModel", dependencies: ["CivilCalendar"]),
        .target(name: "UbiquitySettings", dependencies: [toml]),
        .target(name: "SyncPlanning", dependencies: ["RawPaths"]),
        .target(name: "PresenterPlanning", dependencies: ["APIModel"]),

        // MARK: System libraries
        .systemLibrary(name: "CInotifyTools", providers: [.apt(["libinotifytools0-dev"])]),
        .systemLibrary(name: "CMagic", providers: [.apt(["libmagic-dev"])]),
        .target(name: "CStatx"),

        // MARK: I/O shells
        .target(name: "Watching", dependencies: ["CInotifyTools", "CStatx", "FileEvents", "RawPaths", logging]),
        .target(name: "ContentTypes", dependencies: ["CMagic"]),
        .target(name: "SQLiteDirect", dependencies: [grdb, grdbSQLite]),
        .target(name: "MetadataIndex", dependencies: ["PredicateKit", "APIModel", "RawPaths", "SQLiteDirect", grdb, grdbSQLite]),
        .target(name: "Indexing", dependencies: [
            "MetadataIndex", "ContentTypes", "FileEvents", "IgnoreRules", "Watching", "UbiquitySettings", "CStatx",
            "RawPaths", "Diary", "KeyedArchive", "Coordination", "CivilCalendar", logging,
        ]),
        .target(name: "Coordination", dependencies: ["CivilCalendar"]),
        .target(name: "Diary", dependencies: ["KeyedArchive"]),
        .target(name: "SyncEngine", dependencies: [
            "SyncPlanning", "APIModel", "Indexing", "MetadataIndex", "IgnoreRules", "Coordination", "UbiquitySettings", "RawPaths",
            "Diary", "KeyedArchive", "KeyValueStore", "CStatx", "SQLiteDirect", "CivilCalendar",
            crypto, grdb, logging, system,
        ]),
        .target(name: "DaemonClient", dependencies: ["APIModel", "UbiquitySettings", "Coordination", "RawPaths", nioCore, nioPosix, nioHTTP1]),

        // MARK: Services, library, commands
        .target(name: "CommandLineSettings", dependencies: ["UbiquitySettings", argumentParser]),
        .target(name: "UbiquityDaemon", dependencies: [
            "Indexing", "MetadataIndex", "ContentTypes", "UbiquitySettings", "APIModel", "PredicateKit", "RawPaths", "SyncEngine",
            "SyncPlanning", "Coordination", "PresenterPlanning", "DaemonClient", "CStatx", "SQLiteDirect", logging, serviceLifecycle, unixSignals, hummingbird,
            hummingbirdCore, nioCore, system,
        ]),
        .target(name: "Ubiquity", dependencies: [
            "DaemonClient", "UbiquitySettings", "Coordination", "KeyedArchive", "KeyValueStore", "Diary", "APIModel", "PredicateKit",
        ]),
        .target(name: "UbqCLI", dependencies: [
            "Ubiquity", "DaemonClient", "PredicateKit", "KeyedArchive", "Diary", "APIModel", "UbiquitySettings",
            "CommandLineSettings", "Coordination", "RawPaths", "CStatx", argumentParser, crypto, system,
        ]),

        // MARK: Programs (thin)
        .executableTarget(name: "ubqd", dependencies: ["UbiquityDaemon", "UbiquitySettings", "CommandLineSettings", argumentParser, logging]),
        .executableTarget(name: "ubq", dependencies: ["UbqCLI"]),

        // MARK: Benchmarks and test helpers (not products)
        .executableTarget(name: "coordination-probe", dependencies: ["Coordination", "TestSupport"], path: "Tests/CoordinationProbe"),
        // What several test targets share (a seeded generator): not part of the product.
        .target(name: "TestSupport", dependencies: [logging], path: "Tests/TestSupport"),
        .executableTarget(name: "presenter-probe", dependencies: ["Ubiquity"], path: "Tests/PresenterProbe"),
        .executableTarget(name: "coordination-bench", dependencies: ["Coordination"], path: "Benchmarks/CoordinationBench"),
        .executableTarget(
            name: "archive-bench", dependencies: ["KeyedArchive", "Diary"], path: "Benchmarks/ArchiveBench",
            exclude: ["bpylist2_bench.py"]),
        .executableTarget(name: "predicate-bench", dependencies: ["PredicateKit"], path: "Benchmarks/PredicateBench"),
        .executableTarget(name: "diary-example", dependencies: ["Ubiquity", "Diary"], path: "Examples/Diary"),

        // MARK: Tests
        .testTarget(name: "PredicateKitTests", dependencies: ["PredicateKit", "TestSupport"], exclude: ["sql_agreement_cases.json"]),
        .testTarget(name: "KeyedArchiveTests", dependencies: ["KeyedArchive"]),
        .testTarget(name: "KeyValueStoreTests", dependencies: ["KeyValueStore", "KeyedArchive", "TestSupport"]),
        .testTarget(name: "SyncPlanningTests", dependencies: ["SyncPlanning", "TestSupport"]),
        .testTarget(name: "PresenterPlanningTests", dependencies: ["PresenterPlanning", "APIModel"]),
        .testTarget(name: "SyncEngineTests", dependencies: [
            "SyncEngine", "SyncPlanning", "APIModel", "Indexing", "MetadataIndex", "UbiquitySettings", "RawPaths", "Diary", "KeyedArchive", "KeyValueStore",
            "TestSupport", "CStatx", logging,
            crypto,
        ]),
        .testTarget(name: "FileEventsTests", dependencies: ["FileEvents", "RawPaths"]),
        .testTarget(name: "WatchingTests", dependencies: ["Watching", "Indexing", "IgnoreRules", "FileEvents", "RawPaths", "CStatx", "TestSupport", logging]),
        .testTarget(name: "RawPathsTests", dependencies: ["RawPaths"]),
        .testTarget(name: "CivilCalendarTests", dependencies: ["CivilCalendar"]),
        .testTarget(name: "IgnoreRulesTests", dependencies: ["IgnoreRules"]),
        .testTarget(name: "DiaryTests", dependencies: ["Diary", "KeyedArchive", "TestSupport"]),
        .testTarget(name: "UbiquitySettingsTests", dependencies: ["UbiquitySettings"]),
        .testTarget(name: "ContentTypesTests", dependencies: ["ContentTypes", "TestSupport"]),
        .testTarget(name: "SQLiteDirectTests", dependencies: ["SQLiteDirect", grdb]),
        .testTarget(name: "MetadataIndexTests", dependencies: ["MetadataIndex", "PredicateKit", "APIModel", grdb]),
        .testTarget(name: "IndexingTests", dependencies: ["Indexing", "MetadataIndex", "Diary", "KeyedArchive", "Coordination", "TestSupport", logging]),
        .testTarget(name: "CoordinationTests", dependencies: ["Coordination"]),
        .testTarget(name: "IntegrationTests", dependencies: ["APIModel", "TestSupport", "Ubiquity"]),
        .testTarget(name: "UbqCLITests", dependencies: ["UbqCLI", "APIModel", "Diary", "KeyedArchive"]),
        .testTarget(name: "UbiquityDaemonTests", dependencies: ["UbiquityDaemon"]),
        .testTarget(name: "DocumentTests", dependencies: ["Ubiquity", "Diary", "KeyedArchive", "TestSupport"]),
    ]
)
