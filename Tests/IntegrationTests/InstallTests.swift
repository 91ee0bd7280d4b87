import Foundation
import Testing

/// `make install` without the release build: scripts/install.sh puts the debug binaries into
/// a temporary home, and every file is checked as the program that reads it would
/// (systemd-analyze, bash, zsh, fish, groff); uninstall leaves the home as it was.
@Suite struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let script = repository + "/scripts/install.sh"

    /// A temporary home with the built programs installed in it.
    final class InstalledHome {
        let home: String
        let output: CommandResult
        var bin: String { home + "/.local/bin" }
        var unit: String { home + "/.config/systemd/user/ubqd.service" }
        var bashCompletion: String { home + "/.local/share/bash-completion/completions/ubq" }
        var zshCompletion: String { home + "/.local/share/zsh/site-functions/_ubq" }
        var fishCompletion: String { home + "/.config/fish/completions/ubq.fish" }
        var manPages: [String] { ["ubq", "ubqd"].map { home + "/.local/share/man/man1/\($0).1" } }

        init(environment extra: [String: String] = [:]) throws {
            home = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-home-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            output = try InstalledHome.run("install", home: home, extra: extra)
        }

        deinit { try? FileManager.default.removeItem(atPath: home) }

        static func run(_ action: String, home: String, extra: [String: String] = [:]) throws -> CommandResult {
            let result = try CommandResult.run(
                InstallTests.script, [action, "--bin-from", DaemonHarness.binaries, "--home", home],
                environment: ["PATH": "/usr/bin:/bin"].merging(extra) { $1 })
            guard result.status == 0 else { throw HarnessError("install.sh \(action) failed (\(result.status)): \(result.errorText)") }
            return result
        }

        /// Every file and folder under the home, relative to it.
        func contents() throws -> Set<String> {
            Set(try FileManager.default.subpathsOfDirectory(atPath: home))
        }
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func installPutsEachFileInItsXDGPlaceAndSaysHowToStart() throws {
        let installed = try InstalledHome()
        #expect(installed.output.text.contains("systemctl --user daemon-reload && systemctl --user enable --now ubqd"))
        for program in ["ubqd", "ubq"] {
            #expect(FileManager.default.isExecutableFile(atPath: installed.bin + "/" + program))
        }
        let help = try CommandResult.run(installed.bin + "/ubq", ["--help"], environment: [:])
        #expect(help.status == 0 && help.text.contains("ls"))
        for path in [installed.unit, installed.bashCompletion, installed.zshCompletion, installed.fishCompletion] + installed.manPages {
            #expect(FileManager.default.fileExists(atPath: path), "\(path) was not installed")
        }
        let unit = try String(contentsOfFile: installed.unit, encoding: .utf8)
        #expect(unit.contains("\nExecStart=%h/.local/bin/ubqd\n"))
    }

    @Test func theInstalledUnitVerifiesCleanly() throws {
        let installed = try InstalledHome()
        try Self.expectVerifies(installed.unit, home: installed.home)
    }

    @Test func anotherBinDirIsWhatTheUnitStarts() throws {
        let bindir = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-bindir-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: bindir) }
        let installed = try InstalledHome(environment: ["BINDIR": bindir])
        #expect(FileManager.default.isExecutableFile(atPath: bindir + "/ubqd"))
        let unit = try String(contentsOfFile: installed.unit, encoding: .utf8)
        #expect(unit.contains("\nExecStart=\(bindir)/ubqd\n"))
        try Self.expectVerifies(installed.unit, home: installed.home)
        _ = try InstalledHome.run("uninstall", home: installed.home, extra: ["BINDIR": bindir])
        #expect(!FileManager.default.fileExists(atPath: bindir))
    }

    static func expectVerifies(_ unit: String, home: String) throws {
        let runtime = home + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let result = try CommandResult.run(
            "/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", unit],
            environment: ["HOME": home, "XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.errorText.isEmpty, "\(result.errorText)")
    }

    @Test func theBashCompletionLoadsAndRegistersUbq() throws {
        let installed = try InstalledHome()
        #expect(try CommandResult.run("/bin/bash", ["-n", installed.bashCompletion], environment: [:]).status == 0)
        let loaded = try CommandResult.run("/bin/bash", ["-c", "source \"$1\" && complete -p ubq", "bash", installed.bashCompletion], environment: [:])
        #expect(loaded.status == 0 && loaded.text.contains("_ubq"), "\(loaded.errorText)")
    }

    @Test(.enabled(if: tool("zsh") != nil, "zsh is not installed (scripts/bootstrap.sh installs it), so _ubq is not checked"))
    func theZshCompletionParses() throws {
        let installed = try InstalledHome()
        let result = try CommandResult.run(try #require(Self.tool("zsh")), ["-n", installed.zshCompletion], environment: [:])
        #expect(result.status == 0, "\(result.errorText)")
        #expect(try String(contentsOfFile: installed.zshCompletion, encoding: .utf8).hasPrefix("#compdef ubq"))
    }

    @Test(.enabled(if: tool("fish") != nil, "fish is not installed (scripts/bootstrap.sh installs it), so ubq.fish is not checked"))
    func theFishCompletionParsesAndCompletesSubcommands() throws {
        let installed = try InstalledHome()
        let fish = try #require(Self.tool("fish"))
        #expect(try CommandResult.run(fish, ["-n", installed.fishCompletion], environment: [:]).status == 0)
        let completions = try CommandResult.run(
            fish, ["--no-config", "-c", "source $argv[1]; complete -C 'ubq l'", installed.fishCompletion], environment: ["HOME": installed.home])
        #expect(completions.text.contains("ls"), "\(completions.text) \(completions.errorText)")
    }

    @Test(.enabled(if: tool("groff") != nil, "groff is not installed (scripts/bootstrap.sh installs groff-base), so the pages are not rendered"))
    func theManualPagesRenderWithoutWarnings() throws {
        let installed = try InstalledHome()
        for page in installed.manPages {
            let result = try CommandResult.run(try #require(Self.tool("groff")), ["-mdoc", "-Tutf8", "-ww", "-P-cbou", page], environment: ["PATH": "/usr/bin:/bin"])
            #expect(result.status == 0)
            #expect(result.errorText.isEmpty, "\(page): \(result.errorText)")
            #expect(result.text.contains("SYNOPSIS"))
        }
    }

    @Test func theCommittedManualPagesMatchThePrograms() throws {
        let check = try CommandResult.run(Self.repository + "/scripts/man-pages.sh", ["check", DaemonHarness.binaries], environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.status == 0, "\(check.errorText)")
    }

    @Test func uninstallRemovesWhatInstallPutThereAndNothingElse() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("ubq-home-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        // The user's own files, in folders install also writes to: they must survive.
        let mine = [".config/ubiquity/config.toml", ".local/state/ubiquity/index.sqlite", ".local/share/man/man1/other.1"]
        for path in mine {
            try FileManager.default.createDirectory(atPath: home + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: home + "/" + path))
        }
        let before = Set(try FileManager.default.subpathsOfDirectory(atPath: home))
        _ = try InstalledHome.run("install", home: home)
        _ = try InstalledHome.run("install", home: home)  // a second install changes nothing
        let removed = try InstalledHome.run("uninstall", home: home)
        #expect(removed.text.contains("Removed 12 files"))
        #expect(Set(try FileManager.default.subpathsOfDirectory(atPath: home)) == before)
    }
}
