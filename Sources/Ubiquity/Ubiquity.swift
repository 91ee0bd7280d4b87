// The Swift library apps use: the container, metadata queries and file coordination,
// modelled on FileManager's ubiquity API, NSMetadataQuery and NSFileCoordinator.
@_exported import Coordination
