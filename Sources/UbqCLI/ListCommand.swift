import APIModel
import ArgumentParser
import CommandLineSettings
import DaemonClient
import Foundation

/// `ubq ls`: an NSMetadataQuery over the index.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the items that match a metadata query.",
        discussion: """
            PREDICATE is an NSPredicate format string (kMDItemFSName ENDSWITH[c] ".txt" AND kMDItemFSSize > 1000) \
            or a Spotlight query string (kMDItemFSName == "*.txt"cd). Attributes may be named by their strings \
            (kMDItemFSName) or their constants (NSMetadataItemFSNameKey). The listing reflects every change \
            completed before ubq started.

            --diary-entries runs the query over the entries of every indexed diary instead (attributes \
            ubqDiaryEntryID, kMDItemTitle, kMDItemContentCreationDate, kMDItemContentModificationDate, \
            kMDItemKeywords for the tags, kMDItemTextContent for the body, kMDItemPath of the diary file): \
            ubq ls --diary-entries 'kMDItemTextContent CONTAINS[c] "tomato"'. \
            With --watch, ubq keeps running after the listing and prints one line per update, as NSMetadataQuery \
            reports them: added, changed, or removed (deleted, or no longer matching; a rename into the match is \
            added, out of it removed). --json then prints NDJSON: {"kind": "gathered", "item": {...}} per listed \
            item, {"kind": "finished-gathering", "count": N}, then {"kind": "added|changed|removed", "item": {...}}.
            """)

    @OptionGroup var options: SettingsOptions
    @Argument(help: "The query; every item when omitted.") var predicate: String?
    @Option(name: .customLong("container"), help: "Search only this container id (repeatable; default: all).")
    var containers: [String] = []
    @Option(help: "documents, data or all.") var scope: SearchScope = .documents
    @Option(name: .customLong("sort"), parsing: .unconditionalSingleValue, help: "Sort by this attribute (repeatable); -KEY sorts descending.")
    var sortKeys: [String] = []
    @Flag(help: "Sort every --sort key descending.") var descending = false
    @Option(help: "Print at most N items.") var limit: Int?
    @Option(name: .customLong("attrs"), help: "Comma-separated attributes to print.") var attributes: String?
    @Flag(help: "Print one JSON array of objects keyed by attribute.") var json = false
    @Flag(name: [.customShort("0"), .customLong("print0")], help: "Print absolute paths, NUL-separated.") var print0 = false
    @Flag(help: "Print how the query runs (SQL, parameters, what runs in memory) instead of running it.") var explain = false
    @Flag(help: "List the diary entries that match (one row per entry) instead of items.") var diaryEntries = false
    @Flag(help: "Keep running: print each update to the listing as it happens (a live query).") var watch = false
    @Option(help: "With --watch: coalesce the updates of this many seconds into one line per item (default 0: no delay).")
    var batchInterval: Double?

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if watch && (print0 || explain || limit != nil) { throw ValidationError("--watch cannot be combined with --print0, --explain or --limit") }
        if batchInterval != nil && !watch { throw ValidationError("--batch-interval needs --watch") }
        if let batchInterval, !(0...3600).contains(batchInterval) { throw ValidationError("--batch-interval must be between 0 and 3600 seconds") }
        if json && print0 { throw ValidationError("--json and --print0 cannot be combined") }
        for name in requestedAttributes ?? [] where subject.attribute(named: name) == nil {
            let known = subject.attributes.map(\.name).joined(separator: ", ")
            throw ValidationError("unknown attribute '\(name)' in --attrs\(diaryEntries ? " of diary entries" : ""); known: \(known)")
        }
    }

    private var subject: QuerySubject { diaryEntries ? .diaryEntries : .items }

    func run() async throws {
        let connection = try Connection(options)
        if watch { return try await runWatching(connection) }
        let response = try await Connection.reportingErrors { () async throws(DaemonClientError) in
            do throws(DaemonClientError) {
                return try await connection.client.post(subject.route, body: request, as: QueryResponse.self)
            } catch where error.apiError?.error == "parse" {
                throw DaemonClientError(.rejected, "cannot parse the predicate:\n\(error.message)")
            }
        }
        if explain { return Output.line(response.explanation ?? "") }
        try ListingPrinter(attributes: shownAttributes).print(response.items, json: json, print0: print0)
    }

    /// `--watch`: the gathered listing, then one line per update until ubqd ends the stream.
    private func runWatching(_ connection: Connection) async throws {
        let request = WatchRequest(
            predicate: predicate, containers: containers, scope: scope, sort: self.request.sort, attributes: shownAttributes,
            batchInterval: batchInterval)
        var printer = WatchPrinter(attributes: shownAttributes, json: json)
        try await Connection.reportingErrors { () async throws(DaemonClientError) in
            do throws(DaemonClientError) {
                try await connection.client.streamLines(Route.watch, body: request) { printer.handle($0) }
            } catch where error.apiError?.error == "parse" {
                throw DaemonClientError(.rejected, "cannot parse the predicate:\n\(error.message)")
            }
        }
        // The stream never ends by itself: ubqd always says why it ended it.
        Output.error("ubqd ended the watch: \(printer.closedReason ?? "the stream ended without a reason; see ubqd's log")")
        throw ExitCode(1)
    }

    private var requestedAttributes: [String]? {
        attributes.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
    }

    private var shownAttributes: [String] {
        (requestedAttributes ?? subject.listingDefaults.map(\.name)).map(MetadataAttribute.canonicalName)
    }

    private var request: QueryRequest {
        let sort = sortKeys.map { key in
            key.hasPrefix("-") ? SortKey(attribute: String(key.dropFirst()), ascending: false) : SortKey(attribute: key, ascending: !descending)
        }
        return QueryRequest(
            predicate: predicate, containers: containers, scope: scope, sort: sort, limit: limit,
            attributes: json || !print0 ? shownAttributes : [MetadataAttribute.path.name], sync: true, explain: explain)
    }
}

extension SearchScope: ExpressibleByArgument {}
