import Foundation
import Testing
import UbiquitySettings

@Suite("Container ids map to folder names and back, as Apple's Mobile Documents does")
struct ContainerIDTests {
    static let pairs: [(String, String)] = [
        ("iCloud.com.example.Diary", "iCloud~com~example~Diary"),
        ("iCloud.org.ubiquity.Default", "iCloud~org~ubiquity~Default"),
        ("27N4MQEA55.pro.writer", "27N4MQEA55~pro~writer"),
        ("com.apple.CloudDocs", "com~apple~CloudDocs"),
        ("a.b", "a~b"),
        ("iCloud.my-app.under_score", "iCloud~my-app~under_score"),
    ]

    @Test(arguments: pairs)
    func identifierMapsToFolderName(identifier: String, folderName: String) throws {
        let id = try ContainerID(identifier)
        #expect(id.identifier == identifier)
        #expect(id.folderName == folderName)
        #expect(id.description == identifier)
    }

    @Test(arguments: pairs)
    func folderNameMapsToIdentifier(identifier: String, folderName: String) throws {
        let id = try #require(ContainerID(folderName: folderName))
        #expect(id.identifier == identifier)
        #expect(id == (try ContainerID(identifier)))
    }

    static let invalid: [(String, String)] = [
        ("", "empty"),
        ("iCloud", "at least two"),
        ("iCloud.com..Diary", "empty part"),
        (".iCloud.com", "empty part"),
        ("iCloud.com.", "empty part"),
        ("iCloud.com/Diary", "'/'"),
        ("iCloud~com~Diary", "'~'"),
        ("iCloud.com.Dia ry", "U+20"),
        ("iCloud.com.Dïary", "'ï'"),
        ("iCloud.com.Diary\n", "U+A"),
        ("iCloud." + String(repeating: "x", count: 249), "256 bytes"),
    ]

    @Test(arguments: invalid)
    func invalidIdentifierIsRefusedWithTheReason(identifier: String, reason: String) {
        let error = #expect(throws: SettingsError.self) { try ContainerID(identifier) }
        #expect(error?.code == .invalidContainerID)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("iCloud.org.ubiquity.Default") == true)
    }

    @Test func longestIdentifierIsAccepted() throws {
        let identifier = "iCloud." + String(repeating: "x", count: 248)
        #expect(try ContainerID(identifier).folderName.utf8.count == 255)
    }

    @Test(arguments: [
        "Documents", ".ubiquity", "iCloud.com.example.Diary", "iCloud~~Diary", "~a~b", "a~b~",
        "iCloud~com~Dia ry", "iCloud.com~example", "notes.txt", "",
    ])
    func folderThatIsNotAContainerGivesNil(name: String) {
        #expect(ContainerID(folderName: name) == nil)
    }

    @Test func identifiersSortByTheirDottedForm() throws {
        let ids = try ["iCloud.b", "iCloud.a.z", "com.x"].map { id throws(SettingsError) in try ContainerID(id) }
        #expect(ids.sorted().map(\.identifier) == ["com.x", "iCloud.a.z", "iCloud.b"])
    }

    @Test func codableAsThePlainString() throws {
        let id = try ContainerID("iCloud.com.example.Diary")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["iCloud.com.example.Diary"]"#)
        #expect(try JSONDecoder().decode([ContainerID].self, from: data) == [id])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ContainerID].self, from: Data(#"["bad/id"]"#.utf8))
        }
    }

    @Test func containerFoldersLieUnderTheRoot() throws {
        let settings = Settings(root: "/home/ann/Ubiquity", stateDirectory: "/s", runtimeDirectory: "/r")
        let container = settings.container(try ContainerID("iCloud.com.example.Diary"))
        #expect(container.folder == "/home/ann/Ubiquity/iCloud~com~example~Diary")
        #expect(container.documents == "/home/ann/Ubiquity/iCloud~com~example~Diary/Documents")
    }

    @Test func discoveredFoldersJoinConfiguredContainersSortedOnce() throws {
        let settings = Settings(
            root: "/u", stateDirectory: "/s", runtimeDirectory: "/r",
            containerIDs: [try ContainerID("iCloud.com.example.Diary")])
        let found = settings.containers(discovered: [
            "iCloud~com~example~Diary", "Documents", "com~apple~Notes", ".trash", "iCloud~org~ubiquity~Default",
        ])
        #expect(found.map(\.id.identifier) == ["com.apple.Notes", "iCloud.com.example.Diary", "iCloud.org.ubiquity.Default"])
        #expect(found.map(\.folder) == ["/u/com~apple~Notes", "/u/iCloud~com~example~Diary", "/u/iCloud~org~ubiquity~Default"])
    }
}
