// The C side of copenssl.h: libcrypto's EVP digest interface, looked up with dlopen/dlsym once
// (pthread_once) and called through pointers whose types come from <openssl/evp.h>, so a
// prototype change in OpenSSL is a compile error here rather than a wrong call.

#include "copenssl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <openssl/evp.h>

static struct {
    __typeof__(&EVP_MD_CTX_new) ctx_new;
    __typeof__(&EVP_MD_CTX_free) ctx_free;
    __typeof__(&EVP_sha256) sha256;
    __typeof__(&EVP_DigestInit_ex) init;
    __typeof__(&EVP_DigestUpdate) update;
    __typeof__(&EVP_DigestFinal_ex) final;
    const char *problem;
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The soname of OpenSSL 3 (Debian's libssl3); the unversioned name only where libssl-dev is.
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        api.problem = "libcrypto.so.3 (OpenSSL 3, Debian package libssl3) cannot be loaded";
        return;
    }
    api.ctx_new = (__typeof__(api.ctx_new))dlsym(library, "EVP_MD_CTX_new");
    api.ctx_free = (__typeof__(api.ctx_free))dlsym(library, "EVP_MD_CTX_free");
    api.sha256 = (__typeof__(api.sha256))dlsym(library, "EVP_sha256");
    api.init = (__typeof__(api.init))dlsym(library, "EVP_DigestInit_ex");
    api.update = (__typeof__(api.update))dlsym(library, "EVP_DigestUpdate");
    api.final = (__typeof__(api.final))dlsym(library, "EVP_DigestFinal_ex");
    if (!api.ctx_new || !api.ctx_free || !api.sha256 || !api.init || !api.update || !api.final) {
        api.problem = "libcrypto lacks the EVP digest functions (OpenSSL 3 is needed)";
    }
}

llcrypto_sha256 *llcrypto_sha256_new(const char **error) {
    pthread_once(&once, load);
    if (api.problem != NULL) {
        if (error) *error = api.problem;
        return NULL;
    }
    EVP_MD_CTX *context = api.ctx_new();
    if (context == NULL) {
        if (error) *error = "libcrypto: EVP_MD_CTX_new failed (out of memory)";
        return NULL;
    }
    if (api.init(context, api.sha256(), NULL) != 1) {
        api.ctx_free(context);
        if (error) *error = "libcrypto: EVP_DigestInit_ex(SHA-256) failed";
        return NULL;
    }
    return (llcrypto_sha256 *)context;
}

int llcrypto_sha256_update(llcrypto_sha256 *digest, const void *bytes, size_t count) {
    return api.update((EVP_MD_CTX *)digest, bytes, count);
}

int llcrypto_sha256_final(llcrypto_sha256 *digest, unsigned char out[32]) {
    unsigned char buffer[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (api.final((EVP_MD_CTX *)digest, buffer, &length) != 1 || length != 32) return 0;
    for (int i = 0; i < 32; i++) out[i] = buffer[i];
    return 1;
}

void llcrypto_sha256_free(llcrypto_sha256 *digest) {
    if (digest != NULL) api.ctx_free((EVP_MD_CTX *)digest);
}
