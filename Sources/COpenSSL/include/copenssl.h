// SHA-256 from Debian's libcrypto (OpenSSL 3, package libssl3; headers from libssl-dev), loaded
// with dlopen the first time a digest is made. Only the writers' verification (fix, make, pack)
// hashes anything: `lint` and `dump` never map libcrypto, nor pay its relocations at start-up
// (about 1 MiB resident), as CMediaInfo does for libmediainfo.
#ifndef LIVELINT_COPENSSL_H
#define LIVELINT_COPENSSL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An SHA-256 in progress (an `EVP_MD_CTX`).
typedef struct llcrypto_sha256 llcrypto_sha256;

/// A new SHA-256, or NULL with `*error` set to a static message when libcrypto cannot be loaded
/// or the context cannot be made.
llcrypto_sha256 *llcrypto_sha256_new(const char **error);
/// Adds `count` bytes; 1 on success.
int llcrypto_sha256_update(llcrypto_sha256 *digest, const void *bytes, size_t count);
/// Writes the 32-byte digest to `out`; 1 on success. The digest is then spent.
int llcrypto_sha256_final(llcrypto_sha256 *digest, unsigned char out[32]);
void llcrypto_sha256_free(llcrypto_sha256 *digest);

#ifdef __cplusplus
}
#endif

#endif
