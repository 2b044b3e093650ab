// Debian's libcrypto (OpenSSL 3, libssl-dev): the EVP digest interface, for SHA-256 in
// LiveWriters' SHA256Digest. A system library target, the way SwiftPM wraps SQLite
// (swiftlang/swift-package-manager Sources/SPMSQLite3).
#ifndef LIVELINT_COPENSSL_SHIM_H
#define LIVELINT_COPENSSL_SHIM_H
#include <openssl/evp.h>
#endif
