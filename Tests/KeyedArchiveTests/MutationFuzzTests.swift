import KeyedArchive
import Testing

/// A seeded mutation fuzzer over the decoder: fixture archives (and archives we wrote) with
/// bytes flipped, set to edge values, inserted, deleted, truncated and spliced. Every input
/// must either decode or fail with an `ArchiveError`, quickly, and anything that decodes must
/// survive being written and read again. (`Fuzz/ArchiveFuzz` runs the same under libFuzzer.)
@Suite struct MutationFuzzTests {
    static let iterations = 4_000
    static let limits = DecodingLimits(maxDepth: 256, maxRenderedNodes: 200_000)

    static func seeds() throws -> [[UInt8]] {
        var seeds = try FixturePaths.archiveNames.map(FixturePaths.archiveBytes)
        for seed in UInt64(1)...5 {
            let graph = RandomGraph.make(seed: seed)
            seeds.append(try KeyedArchiver.encode(graph, format: .binary))
            seeds.append(try KeyedArchiver.encode(graph, format: .xml))
        }
        return seeds
    }

    static func mutate(_ input: [UInt8], with random: inout SeededGenerator, donor: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
            let position = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            case 1: bytes[position] = [0x00, 0x0F, 0x7F, 0x80, 0xFF, 0x1F, 0x4F, 0xAF, 0xDF][Int.random(in: 0..<9, using: &random)]
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 3: bytes.remove(at: position)
            case 4: bytes.removeSubrange(position...)
            default:
                let start = Int.random(in: 0..<max(donor.count, 1), using: &random)
                let chunk = donor[min(start, donor.count)..<min(start + 16, donor.count)]
                bytes.replaceSubrange(position..<min(position + chunk.count, bytes.count), with: chunk)
            }
        }
        return bytes
    }

    @Test func mutatedArchivesDecodeOrFailCleanly() throws {
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: 0xA11CE)
        var decoded = 0, rejected = 0
        for _ in 0..<Self.iterations {
            let input = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            let donor = seeds[Int.random(in: 0..<seeds.count, using: &random)]
            let bytes = Self.mutate(input, with: &random, donor: donor)
            _ = ArchiveJSON.render(archiveBytes: bytes, fileName: "mutant", limits: Self.limits)
            do {
                let graph = try KeyedUnarchiver.decode(bytes, limits: Self.limits)
                decoded += 1
                for format in PlistFormat.allCases {
                    guard let written = try? KeyedArchiver.encode(graph, format: format) else { continue }
                    #expect(throws: Never.self) { try KeyedUnarchiver.decode(written, limits: Self.limits) }
                }
            } catch {
                rejected += 1
                #expect(!error.message.isEmpty)
            }
        }
        // Both outcomes must occur, or the mutations are too weak (or too strong) to mean much.
        #expect(decoded > 100 && rejected > 100, "decoded \(decoded), rejected \(rejected)")
    }
}
