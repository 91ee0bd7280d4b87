/// A small, fast, seedable generator (SplitMix64) for the randomized tests: the same seed
/// gives the same run, so a failure prints its seed and replays exactly.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` by plain modulo: cheaper than `Int.random(in:using:)` and
    /// what the sync model check's recorded seeds replay with.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
