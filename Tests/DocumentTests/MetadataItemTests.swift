import APIModel
import Foundation
import Testing

@testable import Ubiquity

/// A query's result keeps its path's bytes: on Linux a `URL` cannot hold a name that is
/// not UTF-8, so two such names would otherwise be one.
@Suite struct MetadataItemTests {
    @Test func twoNamesThatAreNotUTF8AreTwoPaths() {
        let first = Array("/r/iCloud~a~b/Documents/a".utf8) + [0xFF]
        let second = Array("/r/iCloud~a~b/Documents/a".utf8) + [0xFE]
        let one = MetadataItem(ResultItem(attributes: [:], rawPath: Data(first)))
        let two = MetadataItem(ResultItem(attributes: [:], rawPath: Data(second)))

        #expect(one.rawPath == first && two.rawPath == second)
        #expect(one != two)
        #expect(one.url == two.url, "the URL cannot tell them apart: why rawPath is there")
    }
}
