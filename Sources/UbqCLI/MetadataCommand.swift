import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient
import Foundation

/// `ubq mdls PATH`: every attribute of one item, like macOS `mdls`.
struct MetadataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mdls", abstract: "Print every metadata attribute of one item.")

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The item's path.") var path: String
    @Flag(help: "Print a JSON object keyed by attribute.") var json = false

    func run() async throws {
        let connection = try Connection(options)
        let body = ItemRequest(rawPath: Data(RawArguments.absolute(try RawArguments.bytes(of: path))))
        let item = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            try await connection.client.post(Route.item, body: body, as: ResultItem.self)
        }
        if json { return try Output.json(item.attributes) }
        let width = MetadataAttribute.all.map(\.name.count).max() ?? 0
        for attribute in MetadataAttribute.all {
            let value = item.attributes[attribute.name] ?? .null
            Output.line(attribute.name.padding(toLength: width, withPad: " ", startingAt: 0) + " = " + ListingPrinter.cell(value))
        }
    }
}
