import COpenSSL

/// SHA-256 through Debian's libcrypto (OpenSSL 3), by its EVP interface, loaded on first use
/// (`Sources/COpenSSL`, so `lint` and `dump` never map it): what
/// ``MediaDigest`` hashes sample bytes and JPEG image data with. One value per digest; `update`
/// as often as needed, then `finalize` once.
///
/// libcrypto rather than swift-crypto: swift-crypto compiles its own BoringSSL, which was most of
/// a clean build (see README "Dependencies"), for this one use.
struct SHA256Digest: ~Copyable {
    /// The digest in progress, owned: freed on deinit.
    private let context: OpaquePointer

    init() {
        // Fails only when libcrypto is missing from the machine (a broken install: Debian's
        // libssl3 is a dependency of the package) or malloc fails: nothing a caller can mend.
        var problem: UnsafePointer<CChar>?
        guard let context = llcrypto_sha256_new(&problem) else {
            fatalError("livelint needs libcrypto to verify what it writes: \(problem.map { String(cString: $0) } ?? "unknown error")")
        }
        self.context = context
    }

    deinit { llcrypto_sha256_free(context) }

    /// Adds `bytes` to the digest.
    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            llcrypto_sha256_update(context, buffer.baseAddress, buffer.count)
        }
        let status = done ?? Array(bytes).withUnsafeBufferPointer { llcrypto_sha256_update(context, $0.baseAddress, $0.count) }
        guard status == 1 else { fatalError("libcrypto: EVP_DigestUpdate failed") }
    }

    /// The digest as lower-case hex, as ``TrackDigest/sha256`` and ``MediaDigest/jpegImageData(_:)`` report it.
    consuming func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        guard llcrypto_sha256_final(context, &digest) == 1 else { fatalError("libcrypto: EVP_DigestFinal_ex failed") }
        let length = digest.count
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(2 * length)
        for byte in digest { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hex SHA-256 of `bytes` in one call.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.finalize()
    }
}
