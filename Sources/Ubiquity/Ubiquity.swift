// The Swift library apps use: the container, metadata queries and file coordination,
// modelled on FileManager's ubiquity API, NSMetadataQuery and NSFileCoordinator; file
// versions (NSFileVersion) and the key-value store (NSUbiquitousKeyValueStore), whose
// values are property-list values (KeyedArchive's PlistValue).
@_exported import Coordination
@_exported import KeyValueStore
@_exported import KeyedArchive
