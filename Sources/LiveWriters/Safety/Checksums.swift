/// SHA-256 (FIPS 180-4), streaming, in pure Swift: used to prove that media bytes survive a
/// rewrite unchanged. Not constant-time; never used for secrets.
public struct SHA256Hasher: Sendable {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    public init() { buffer.reserveCapacity(64) }

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(buffer: UnsafeRawBufferPointer($0)) }) { return done }
        let copy = Array(bytes)
        copy.withUnsafeBytes { update(buffer: $0) }
    }

    private mutating func update(buffer bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, bytes.count)
            buffer += bytes[0..<take]
            offset = take
            guard buffer.count == 64 else { return }
            let block = buffer
            block.withUnsafeBytes { compress($0.baseAddress!) }
            buffer.removeAll(keepingCapacity: true)
        }
        let blocks = (bytes.count - offset) / 64
        if blocks > 0 {
            compress(bytes.baseAddress!.advanced(by: offset), blocks: blocks)
            offset += blocks * 64
        }
        if offset < bytes.count { buffer += bytes[offset...] }
    }

    /// The 32-byte digest. The hasher can no longer be updated meaningfully afterwards.
    public mutating func finalize() -> [UInt8] {
        let bits = length &* 8
        var tail = buffer + [0x80]
        while tail.count % 64 != 56 { tail.append(0) }
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        tail.withUnsafeBytes { compress($0.baseAddress!, blocks: $0.count / 64) }
        buffer.removeAll()
        return state.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32($0))) } }
    }

    /// The digest of `bytes` as lower-case hex.
    public static func hex(_ bytes: some Collection<UInt8>) -> String {
        var h = SHA256Hasher()
        h.update(bytes)
        return hexString(h.finalize())
    }

    static func hexString(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Hashes `count` 64-byte blocks starting at `p`.
    private mutating func compress(_ p: UnsafeRawPointer, blocks count: Int = 1) {
        state.withUnsafeMutableBufferPointer { st in
            Self.k.withUnsafeBufferPointer { k in
                Self.compressBlocks(st.baseAddress!, k.baseAddress!, p, count)
            }
        }
    }

    /// The FIPS 180-4 compression function over `count` blocks. Optimized even in debug builds:
    /// tests hash megabytes of media, and unoptimized this loop is twenty times slower.
    @_optimize(speed)
    private static func compressBlocks(_ st: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>, _ p: UnsafeRawPointer, _ count: Int) {
        var w: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
               0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &w) { raw in
            let w = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            let bytes = p.assumingMemoryBound(to: UInt8.self)
            for block in 0..<count {
                let b = bytes + block * 64
                for t in 0..<16 {
                    w[t] = UInt32(b[t * 4]) << 24 | UInt32(b[t * 4 + 1]) << 16 | UInt32(b[t * 4 + 2]) << 8 | UInt32(b[t * 4 + 3])
                }
                for t in 16..<64 {
                    let x = w[t - 15], y = w[t - 2]
                    let s0 = ((x >> 7) | (x << 25)) ^ ((x >> 18) | (x << 14)) ^ (x >> 3)
                    let s1 = ((y >> 17) | (y << 15)) ^ ((y >> 19) | (y << 13)) ^ (y >> 10)
                    w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                }
                var a = st[0], b2 = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7]
                for t in 0..<64 {
                    let s1 = ((e >> 6) | (e << 26)) ^ ((e >> 11) | (e << 21)) ^ ((e >> 25) | (e << 7))
                    let ch = (e & f) ^ (~e & g)
                    let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
                    let s0 = ((a >> 2) | (a << 30)) ^ ((a >> 13) | (a << 19)) ^ ((a >> 22) | (a << 10))
                    let maj = (a & b2) ^ (a & c) ^ (b2 & c)
                    h = g; g = f; f = e; e = d &+ t1; d = c; c = b2; b2 = a; a = t1 &+ s0 &+ maj
                }
                st[0] &+= a; st[1] &+= b2; st[2] &+= c; st[3] &+= d
                st[4] &+= e; st[5] &+= f; st[6] &+= g; st[7] &+= h
            }
        }
    }
}

/// CRC-32 (ISO-HDLC, the ZIP and PNG one: polynomial 0xEDB88320 reflected, init and final xor ~0).
public enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Continues `crc` (0 to start) over `bytes`.
    @_optimize(speed)
    public static func update(_ crc: UInt32, _ bytes: some Sequence<UInt8>) -> UInt32 {
        var c = ~crc
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }

    /// The CRC-32 of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 { update(0, bytes) }
}
