/// The 64-bit mixing the scan's hashes share: a UUID's tie (``PartitionBuilder``), a file's and a
/// bucket's key (``BucketKey``), the cache's facts signature. The values are kept in the cache:
/// changing one changes what a cache written before holds for nothing.
public enum Mix {
    /// 2^64 over the golden ratio, odd: SplitMix64's increment, and Fibonacci hashing's multiplier.
    public static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// `a` spread by ``golden`` and `b` mixed in: two hashes made one.
    @inline(__always) public static func combine(_ a: UInt64, _ b: UInt64) -> UInt64 {
        (a &* golden) ^ b
    }

    /// The bits of `x` spread over all 64 (the finish of SplitMix64's mixer).
    @inline(__always) public static func spread(_ x: UInt64) -> UInt64 {
        var x = x
        x ^= x >> 29
        x &*= 0xBF58_476D_1CE4_E5B9
        return x ^ (x >> 32)
    }
}
