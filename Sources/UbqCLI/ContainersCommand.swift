import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient

struct ContainersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "containers", abstract: "List the ubiquity containers.")

    @OptionGroup var options: SettingsOptions
    @Flag(help: "Print a JSON array of {id, url, documents, items}.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let containers = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.get(Route.containers, as: [ContainerInfo].self)
        }
        if json { return try Output.json(containers) }
        let rows = containers.map { [$0.id, String($0.items), $0.url] }
        Output.line(Table.render(header: ["ID", "ITEMS", "FOLDER"], rows: rows, rightAligned: [1]))
    }
}
