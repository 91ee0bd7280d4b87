import Foundation
import Ubiquity

/// `kvs CONTAINER`: the container's key-value store, open in this process and listening.
/// Prints "opened", then "change REASON KEY,KEY..." for each change heard from elsewhere.
/// stdin: "set KEY TEXT" sets a string and synchronizes, "sync" synchronizes; each prints
/// "synced" (or "error ..."), then "value KEY TEXT" for "get KEY". End of stdin exits.
func keyValues(_ container: String) async {
    let store: UbiquitousKeyValueStore
    do {
        store = try await UbiquitousKeyValueStore.open(container: container)
    } catch {
        fail("\(error)")
    }
    let changes = await store.changes()
    Task.detached {  // the main thread blocks in readLine
        for await change in changes { say("change \(change.reason) \(change.keys.joined(separator: ","))") }
    }
    say("opened")
    while let line = readLine() {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        do {
            switch words.first {
            case "set" where words.count == 3:
                try store.set(words[2], forKey: words[1])
                try await store.synchronize()
                say("synced")
            case "sync":
                try await store.synchronize()
                say("synced")
            case "get" where words.count == 2:
                say("value \(words[1]) \(store.string(forKey: words[1]) ?? "(none)")")
            default: say("error unknown command \(line)")
            }
        } catch {
            say("error \(error)")
        }
    }
}
