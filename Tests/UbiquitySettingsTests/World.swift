import UbiquitySettings

/// A fake machine for resolving settings: an environment, a current directory and a few files,
/// all in memory. Tests change what they need and call ``resolve()``.
struct World: Sendable {
    static let home = "/home/ann"
    static let defaultConfig = "/home/ann/.config/ubiquity/config.toml"

    var environment: [String: String] = ["HOME": World.home]
    var files: [String: String] = [:]
    var overrides = SettingsOverrides()
    var currentDirectory: String? = "/work/dir"
    var userID: UInt32 = 1000

    /// Puts `text` in the default configuration file.
    mutating func config(_ text: String) {
        files[World.defaultConfig] = text
    }

    func resolve() throws(SettingsError) -> Settings {
        let files = self.files
        return try Settings.resolve(
            overrides: overrides, environment: environment, currentDirectory: currentDirectory,
            userID: userID, readFile: { files[$0] })
    }

    /// The error resolution throws, or nil when it succeeds.
    func error() -> SettingsError? {
        do {
            _ = try resolve()
            return nil
        } catch {
            return error
        }
    }
}
