// The signature floor: the libraries verifying a chain's signatures with public keys built once, nothing else
// (no certificate parse, no path checks). What certkit's per-link check cannot go below.
#include "CBaselines.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>

/// One signed message: the bytes, the signature, and the name of how it was signed.
typedef struct {
    unsigned char *message;
    size_t message_length;
    unsigned char *signature;
    size_t signature_length;
} floor_link;

/// Copies link `index` out of the flat buffers (offsets advance as links are read).
static int floor_read(floor_link *link, const unsigned char *tbs, const size_t *tbs_lengths, size_t *tbs_offset,
                      const unsigned char *sigs, const size_t *sig_lengths, size_t *sig_offset, size_t index) {
    link->message_length = tbs_lengths[index];
    link->signature_length = sig_lengths[index];
    link->message = malloc(link->message_length + 1);
    link->signature = malloc(link->signature_length + 1);
    if (link->message == NULL || link->signature == NULL) return 0;
    memcpy(link->message, tbs + *tbs_offset, link->message_length);
    memcpy(link->signature, sigs + *sig_offset, link->signature_length);
    *tbs_offset += link->message_length;
    *sig_offset += link->signature_length;
    return 1;
}

/// The `index`th comma-separated name of `names` into `out` (at most `capacity` bytes with the NUL).
static void floor_name(const char *names, size_t index, char *out, size_t capacity) {
    const char *start = names;
    for (size_t skipped = 0; skipped < index && start != NULL; skipped++) {
        start = strchr(start, ',');
        if (start != NULL) start++;
    }
    out[0] = 0;
    if (start == NULL) return;
    size_t length = strcspn(start, ",");
    if (length >= capacity) length = capacity - 1;
    memcpy(out, start, length);
    out[length] = 0;
}

// ---------------------------------------------------------------- OpenSSL

struct cb_ossl_links {
    size_t count;
    floor_link *links;
    EVP_PKEY **keys;
    const EVP_MD **digests;
};

cb_ossl_links *cb_ossl_links_new(const unsigned char *spkis, const size_t *spki_lengths, const unsigned char *tbs,
                                 const size_t *tbs_lengths, const unsigned char *sigs, const size_t *sig_lengths,
                                 const char *digests, size_t count) {
    cb_ossl_links *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    result->count = count;
    result->links = calloc(count, sizeof *result->links);
    result->keys = calloc(count, sizeof *result->keys);
    result->digests = calloc(count, sizeof *result->digests);
    size_t spki_offset = 0, tbs_offset = 0, sig_offset = 0;
    for (size_t index = 0; result->links != NULL && result->keys != NULL && result->digests != NULL && index < count; index++) {
        const unsigned char *cursor = spkis + spki_offset;
        result->keys[index] = d2i_PUBKEY(NULL, &cursor, (long)spki_lengths[index]);
        spki_offset += spki_lengths[index];
        char name[32];
        floor_name(digests, index, name, sizeof name);
        result->digests[index] = EVP_get_digestbyname(name);
        if (result->keys[index] == NULL || result->digests[index] == NULL
            || !floor_read(&result->links[index], tbs, tbs_lengths, &tbs_offset, sigs, sig_lengths, &sig_offset, index)) {
            cb_ossl_links_free(result);
            ERR_clear_error();
            return NULL;
        }
    }
    return result;
}

void cb_ossl_links_free(cb_ossl_links *links) {
    if (links == NULL) return;
    for (size_t index = 0; index < links->count; index++) {
        if (links->keys != NULL) EVP_PKEY_free(links->keys[index]);
        if (links->links != NULL) {
            free(links->links[index].message);
            free(links->links[index].signature);
        }
    }
    free(links->links);
    free(links->keys);
    free(links->digests);
    free(links);
}

int cb_ossl_links_verify(const cb_ossl_links *links) {
    int verified = 0;
    for (size_t index = 0; index < links->count; index++) {
        const floor_link *link = &links->links[index];
        EVP_MD_CTX *context = EVP_MD_CTX_new();
        if (context == NULL) return -1;
        if (EVP_DigestVerifyInit(context, NULL, links->digests[index], NULL, links->keys[index]) == 1
            && EVP_DigestVerify(context, link->signature, link->signature_length, link->message, link->message_length) == 1) {
            verified++;
        }
        EVP_MD_CTX_free(context);
    }
    ERR_clear_error();
    return verified;
}

// ---------------------------------------------------------------- GnuTLS

struct cb_gtls_links {
    size_t count;
    floor_link *links;
    gnutls_pubkey_t *keys;
    gnutls_sign_algorithm_t *algorithms;
};

cb_gtls_links *cb_gtls_links_new(const unsigned char *spkis, const size_t *spki_lengths, const unsigned char *tbs,
                                 const size_t *tbs_lengths, const unsigned char *sigs, const size_t *sig_lengths,
                                 const char *digests, size_t count) {
    gnutls_global_init();
    cb_gtls_links *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    result->count = count;
    result->links = calloc(count, sizeof *result->links);
    result->keys = calloc(count, sizeof *result->keys);
    result->algorithms = calloc(count, sizeof *result->algorithms);
    size_t spki_offset = 0, tbs_offset = 0, sig_offset = 0;
    for (size_t index = 0; result->links != NULL && result->keys != NULL && result->algorithms != NULL && index < count; index++) {
        gnutls_datum_t spki = {(unsigned char *)spkis + spki_offset, (unsigned int)spki_lengths[index]};
        spki_offset += spki_lengths[index];
        char name[32];
        floor_name(digests, index, name, sizeof name);
        int ok = gnutls_pubkey_init(&result->keys[index]) >= 0;
        int code = ok ? gnutls_pubkey_import(result->keys[index], &spki, GNUTLS_X509_FMT_DER) : -1;
        if (code < 0) {
            fprintf(stderr, "signature floor: link %zu: gnutls_pubkey_import: %s\n", index, gnutls_strerror(code));
            ok = 0;
        }
        // The key's algorithm with the named digest (gnutls_pk_to_sign), as GnuTLS itself pairs them.
        result->algorithms[index] = ok ? gnutls_pk_to_sign(gnutls_pubkey_get_pk_algorithm(result->keys[index], NULL),
                                                           gnutls_digest_get_id(name))
                                       : GNUTLS_SIGN_UNKNOWN;
        if (ok && result->algorithms[index] == GNUTLS_SIGN_UNKNOWN) fprintf(stderr, "signature floor: no GnuTLS algorithm for %s\n", name);
        if (!ok || result->algorithms[index] == GNUTLS_SIGN_UNKNOWN
            || !floor_read(&result->links[index], tbs, tbs_lengths, &tbs_offset, sigs, sig_lengths, &sig_offset, index)) {
            cb_gtls_links_free(result);
            return NULL;
        }
    }
    return result;
}

void cb_gtls_links_free(cb_gtls_links *links) {
    if (links == NULL) return;
    for (size_t index = 0; index < links->count; index++) {
        if (links->keys != NULL && links->keys[index] != NULL) gnutls_pubkey_deinit(links->keys[index]);
        if (links->links != NULL) {
            free(links->links[index].message);
            free(links->links[index].signature);
        }
    }
    free(links->links);
    free(links->keys);
    free(links->algorithms);
    free(links);
}

int cb_gtls_links_verify(const cb_gtls_links *links) {
    int verified = 0;
    for (size_t index = 0; index < links->count; index++) {
        const floor_link *link = &links->links[index];
        gnutls_datum_t message = {link->message, (unsigned int)link->message_length};
        gnutls_datum_t signature = {link->signature, (unsigned int)link->signature_length};
        if (gnutls_pubkey_verify_data2(links->keys[index], links->algorithms[index], GNUTLS_VERIFY_ALLOW_SIGN_WITH_SHA1,
                                       &message, &signature) >= 0) {
            verified++;
        }
    }
    return verified;
}
