/*
 * A fault-injecting shim for the tests (Tests/CLITests/LibraryResultTests.swift): preloaded into a `certkit`
 * process with LD_PRELOAD, it stands in front of the library calls whose result decides trust and, when
 * CERTKIT_FAULT is "NAME=VALUE" for one of them, returns VALUE instead of calling the library ("null" for a
 * pointer). Every other call goes to the real library (dlsym RTLD_NEXT). Never linked into the product.
 *
 * Built by the test itself: cc -shared -fPIC -o libcertkit-fault.so fault.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *fault(const char *name) {
    const char *spec = getenv("CERTKIT_FAULT");
    size_t n = strlen(name);
    if (spec == NULL || strncmp(spec, name, n) != 0 || spec[n] != '=') return NULL;
    return spec + n + 1;
}

#define NEXT(name) \
    static __typeof__(&name) next_##name; \
    if (next_##name == NULL) next_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

/* OpenSSL 3: 1 = verified, 0 = does not verify, < 0 = error (-1, -2 "not supported"). */
int EVP_DigestVerify(void *ctx, const unsigned char *sig, size_t siglen, const unsigned char *tbs, size_t tbslen) {
    const char *f = fault("EVP_DigestVerify");
    if (f != NULL) return atoi(f);
    NEXT(EVP_DigestVerify);
    return next_EVP_DigestVerify(ctx, sig, siglen, tbs, tbslen);
}

/* OpenSSL 3: the key, or NULL. */
void *d2i_PUBKEY(void **a, const unsigned char **pp, long length) {
    const char *f = fault("d2i_PUBKEY");
    if (f != NULL) return NULL;
    NEXT(d2i_PUBKEY);
    return next_d2i_PUBKEY(a, pp, length);
}

/* OpenSSL 3: 1 = success, 0 = failure. */
int EVP_PKEY_set1_encoded_public_key(void *pkey, const unsigned char *pub, size_t publen) {
    const char *f = fault("EVP_PKEY_set1_encoded_public_key");
    if (f != NULL) return atoi(f);
    NEXT(EVP_PKEY_set1_encoded_public_key);
    return next_EVP_PKEY_set1_encoded_public_key(pkey, pub, publen);
}

/* OpenSSL 3: 1 = success, 0 = failure. */
int EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size, const void *type, void *impl) {
    const char *f = fault("EVP_Digest");
    if (f != NULL) return atoi(f);
    NEXT(EVP_Digest);
    return next_EVP_Digest(data, count, md, size, type, impl);
}

/* GnuTLS 3.7: >= 0 = verified, GNUTLS_E_PK_SIG_VERIFY_FAILED (-89) = does not verify, other < 0 = error. */
int gnutls_pubkey_verify_data2(void *pubkey, int algo, unsigned int flags, const void *data, const void *signature) {
    const char *f = fault("gnutls_pubkey_verify_data2");
    if (f != NULL) return atoi(f);
    NEXT(gnutls_pubkey_verify_data2);
    return next_gnutls_pubkey_verify_data2(pubkey, algo, flags, data, signature);
}

/* GnuTLS 3.7: 0 = success, < 0 = error. */
int gnutls_pubkey_import(void *key, const void *data, int format) {
    const char *f = fault("gnutls_pubkey_import");
    if (f != NULL) return atoi(f);
    NEXT(gnutls_pubkey_import);
    return next_gnutls_pubkey_import(key, data, format);
}

/* GnuTLS 3.7: 0 = success, < 0 = error. */
int gnutls_hash_fast(int algorithm, const void *text, size_t textlen, void *digest) {
    const char *f = fault("gnutls_hash_fast");
    if (f != NULL) return atoi(f);
    NEXT(gnutls_hash_fast);
    return next_gnutls_hash_fast(algorithm, text, textlen, digest);
}

/* OpenSSL 3: the key, or NULL (RSA keys are built this way from the RSAPublicKey). */
void *d2i_PublicKey(int type, void **a, const unsigned char **pp, long length) {
    const char *f = fault("d2i_PublicKey");
    if (f != NULL) return NULL;
    NEXT(d2i_PublicKey);
    return next_d2i_PublicKey(type, a, pp, length);
}

/* The audit mode's library verdicts. "R" returns R without verifying; "R:E" also leaves E as the context's error
 * (OpenSSL 3: 1 = verified, 0 = refused with X509_STORE_CTX_get_error, < 0 = the library failed). */
void X509_STORE_CTX_set_error(void *ctx, int s);
int X509_verify_cert(void *ctx) {
    const char *f = fault("X509_verify_cert");
    if (f != NULL) {
        const char *colon = strchr(f, ':');
        if (colon != NULL) {
            NEXT(X509_STORE_CTX_set_error);
            next_X509_STORE_CTX_set_error(ctx, atoi(colon + 1));
        }
        return atoi(f);
    }
    NEXT(X509_verify_cert);
    return next_X509_verify_cert(ctx);
}

/* GnuTLS 3.7: < 0 = the library failed; else *voutput holds the status bits (0 = verified). "R" returns R
 * without verifying; "status:N" verifies, then reports the status bits N instead of the library's. */
int gnutls_x509_trust_list_verify_crt2(void *list, void *certs, unsigned int count, void *data, unsigned int elements,
                                       unsigned int flags, unsigned int *voutput, void *func) {
    const char *f = fault("gnutls_x509_trust_list_verify_crt2");
    NEXT(gnutls_x509_trust_list_verify_crt2);
    if (f != NULL && strncmp(f, "status:", 7) != 0) return atoi(f);
    int result = next_gnutls_x509_trust_list_verify_crt2(list, certs, count, data, elements, flags, voutput, func);
    if (f != NULL && result >= 0 && voutput != NULL) *voutput = (unsigned int)strtoul(f + 7, NULL, 0);
    return result;
}
