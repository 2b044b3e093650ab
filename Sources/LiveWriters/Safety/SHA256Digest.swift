import COpenSSL

/// SHA-256 through Debian's libcrypto (OpenSSL 3, `libssl-dev`), by its EVP interface: what
/// ``MediaDigest`` hashes sample bytes and JPEG image data with. One value per digest; `update`
/// as often as needed, then `finalize` once.
///
/// libcrypto rather than swift-crypto: swift-crypto compiles its own BoringSSL, which was most of
/// a clean build (see README "Dependencies"), for this one use.
struct SHA256Digest: ~Copyable {
    /// The `EVP_MD_CTX`, owned: freed on deinit.
    private let context: OpaquePointer

    init() {
        // EVP_MD_CTX_new fails only when malloc does; EVP_DigestInit_ex with a built-in digest
        // fails only then too. Either way there is nothing to recover: stop, as Swift does on OOM.
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto: EVP_MD_CTX_new failed (out of memory)") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            fatalError("libcrypto: EVP_DigestInit_ex(SHA-256) failed")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            EVP_DigestUpdate(context, buffer.baseAddress, buffer.count)
        }
        let status = done ?? Array(bytes).withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        guard status == 1 else { fatalError("libcrypto: EVP_DigestUpdate failed") }
    }

    /// The digest as lower-case hex, as ``TrackDigest/sha256`` and ``MediaDigest/jpegImageData(_:)`` report it.
    consuming func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            fatalError("libcrypto: EVP_DigestFinal_ex failed")
        }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(2 * Int(length))
        for byte in digest.prefix(Int(length)) { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hex SHA-256 of `bytes` in one call.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.finalize()
    }
}
