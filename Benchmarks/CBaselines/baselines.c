#include "CBaselines.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

// ---------------------------------------------------------------- OpenSSL

struct cb_ossl_store { X509_STORE *store; };
struct cb_ossl_chain { X509 *target; STACK_OF(X509) *untrusted; };

int cb_ossl_pem_to_der(const char *pem, size_t length) {
    BIO *bio = BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return -1;
    int count = 0;
    X509 *x509;
    while ((x509 = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
        unsigned char *der = NULL;
        int size = i2d_X509(x509, &der);
        if (size > 0) count++;
        OPENSSL_free(der);
        X509_free(x509);
    }
    ERR_clear_error(); // the end of input leaves "no start line"
    BIO_free(bio);
    return count;
}

static X509 *ossl_parse(const unsigned char *der, size_t length) {
    const unsigned char *cursor = der;
    return d2i_X509(NULL, &cursor, (long)length);
}

cb_ossl_store *cb_ossl_store_new(const unsigned char *ders, const size_t *lengths, size_t count) {
    cb_ossl_store *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    result->store = X509_STORE_new();
    for (size_t i = 0; i < count; i++) {
        X509 *x509 = ossl_parse(ders, lengths[i]);
        ders += lengths[i];
        if (x509 == NULL) continue;
        X509_STORE_add_cert(result->store, x509);
        X509_free(x509);
    }
    ERR_clear_error();
    return result;
}

void cb_ossl_store_free(cb_ossl_store *store) {
    if (store == NULL) return;
    X509_STORE_free(store->store);
    free(store);
}

cb_ossl_chain *cb_ossl_chain_new(const unsigned char *ders, const size_t *lengths, size_t count) {
    if (count == 0) return NULL;
    cb_ossl_chain *chain = calloc(1, sizeof *chain);
    if (chain == NULL) return NULL;
    chain->untrusted = sk_X509_new_null();
    for (size_t i = 0; i < count; i++) {
        X509 *x509 = ossl_parse(ders, lengths[i]);
        ders += lengths[i];
        if (x509 == NULL) continue;
        if (chain->target == NULL) chain->target = x509;
        else sk_X509_push(chain->untrusted, x509);
    }
    return chain;
}

void cb_ossl_chain_free(cb_ossl_chain *chain) {
    if (chain == NULL) return;
    X509_free(chain->target);
    sk_X509_pop_free(chain->untrusted, X509_free);
    free(chain);
}

static int ossl_verify(X509_STORE *store, X509 *target, STACK_OF(X509) *untrusted, int64_t when, const char *host) {
    X509_STORE_CTX *context = X509_STORE_CTX_new();
    if (context == NULL) return -1;
    int result = -1;
    if (X509_STORE_CTX_init(context, store, target, untrusted) == 1) {
        X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(context);
        X509_VERIFY_PARAM_set_time(param, (time_t)when);
        X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER);
        if (host != NULL) X509_VERIFY_PARAM_set1_host(param, host, 0);
        int ok = X509_verify_cert(context);
        result = ok == 1 ? X509_V_OK : (ok < 0 ? -1 : X509_STORE_CTX_get_error(context));
    }
    X509_STORE_CTX_free(context);
    ERR_clear_error();
    return result;
}

int cb_ossl_verify(const cb_ossl_store *store, const cb_ossl_chain *chain, int64_t when, const char *host) {
    return ossl_verify(store->store, chain->target, chain->untrusted, when, host);
}

int cb_ossl_verify_der(const cb_ossl_store *store, const unsigned char *ders, const size_t *lengths, size_t count,
                       int64_t when, const char *host) {
    cb_ossl_chain *chain = cb_ossl_chain_new(ders, lengths, count);
    if (chain == NULL || chain->target == NULL) {
        cb_ossl_chain_free(chain);
        return -1;
    }
    int result = ossl_verify(store->store, chain->target, chain->untrusted, when, host);
    cb_ossl_chain_free(chain);
    return result;
}

// ---------------------------------------------------------------- GnuTLS

struct cb_gtls_list { gnutls_x509_trust_list_t list; };
struct cb_gtls_chain { gnutls_x509_crt_t *certificates; size_t count; };

static gnutls_x509_crt_t gtls_parse(const unsigned char *der, size_t length) {
    gnutls_x509_crt_t certificate;
    if (gnutls_x509_crt_init(&certificate) < 0) return NULL;
    gnutls_datum_t datum = {(unsigned char *)der, (unsigned int)length};
    if (gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_DER) < 0) {
        gnutls_x509_crt_deinit(certificate);
        return NULL;
    }
    return certificate;
}

cb_gtls_list *cb_gtls_list_new(const unsigned char *ders, const size_t *lengths, size_t count) {
    gnutls_global_init(); // reference-counted; every chain is created after a list
    cb_gtls_list *result = calloc(1, sizeof *result);
    if (result == NULL) return NULL;
    if (gnutls_x509_trust_list_init(&result->list, 0) < 0) {
        free(result);
        return NULL;
    }
    gnutls_x509_crt_t *cas = calloc(count ? count : 1, sizeof *cas);
    size_t parsed = 0;
    for (size_t i = 0; i < count; i++) {
        gnutls_x509_crt_t certificate = gtls_parse(ders, lengths[i]);
        ders += lengths[i];
        if (certificate != NULL) cas[parsed++] = certificate;
    }
    // The list takes ownership of the certificates it keeps (and frees the duplicates it drops).
    gnutls_x509_trust_list_add_cas(result->list, cas, (unsigned)parsed, 0);
    free(cas);
    return result;
}

void cb_gtls_list_free(cb_gtls_list *list) {
    if (list == NULL) return;
    gnutls_x509_trust_list_deinit(list->list, 1);
    free(list);
}

cb_gtls_chain *cb_gtls_chain_new(const unsigned char *ders, const size_t *lengths, size_t count) {
    cb_gtls_chain *chain = calloc(1, sizeof *chain);
    if (chain == NULL) return NULL;
    chain->certificates = calloc(count ? count : 1, sizeof *chain->certificates);
    for (size_t i = 0; i < count; i++) {
        gnutls_x509_crt_t certificate = gtls_parse(ders, lengths[i]);
        ders += lengths[i];
        if (certificate != NULL) chain->certificates[chain->count++] = certificate;
    }
    return chain;
}

void cb_gtls_chain_free(cb_gtls_chain *chain) {
    if (chain == NULL) return;
    for (size_t i = 0; i < chain->count; i++) gnutls_x509_crt_deinit(chain->certificates[i]);
    free(chain->certificates);
    free(chain);
}

static int gtls_verify(gnutls_x509_trust_list_t list, gnutls_x509_crt_t *certificates, size_t count, const char *host) {
    gnutls_typed_vdata_st data[2];
    unsigned elements = 0;
    data[elements].type = GNUTLS_DT_KEY_PURPOSE_OID;
    data[elements].data = (unsigned char *)GNUTLS_KP_TLS_WWW_SERVER;
    data[elements].size = 0;
    elements++;
    if (host != NULL) {
        data[elements].type = GNUTLS_DT_DNS_HOSTNAME;
        data[elements].data = (unsigned char *)host;
        data[elements].size = 0;
        elements++;
    }
    unsigned status = 0;
    unsigned flags = GNUTLS_VERIFY_DISABLE_TIME_CHECKS | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS;
    int code = gnutls_x509_trust_list_verify_crt2(list, certificates, (unsigned)count, data, elements, flags, &status, NULL);
    return code < 0 ? code : (int)status;
}

int cb_gtls_verify(const cb_gtls_list *list, const cb_gtls_chain *chain, const char *host) {
    return gtls_verify(list->list, chain->certificates, chain->count, host);
}

int cb_gtls_verify_der(const cb_gtls_list *list, const unsigned char *ders, const size_t *lengths, size_t count,
                       const char *host) {
    cb_gtls_chain *chain = cb_gtls_chain_new(ders, lengths, count);
    if (chain == NULL) return -1;
    int result = chain->count == 0 ? -1 : gtls_verify(list->list, chain->certificates, chain->count, host);
    cb_gtls_chain_free(chain);
    return result;
}

// ---------------------------------------------------------------- Generated PKI (OpenSSL)

struct cb_pki {
    EVP_PKEY *keys[4];      // root A, intermediate A, root B, intermediate B
    X509 *certificates[4];
    EVP_PKEY *leaf_key;
};

static int pki_extension(X509 *certificate, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int ok = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

// A certificate for `key` named `name`, signed by `issuer_key` (issuer certificate `issuer`, or itself when NULL).
static X509 *pki_certificate(EVP_PKEY *key, const char *name, X509 *issuer, EVP_PKEY *issuer_key, uint64_t serial,
                             int64_t not_before, int64_t not_after, int ca, const char *host) {
    X509 *certificate = X509_new();
    if (certificate == NULL) return NULL;
    int ok = X509_set_version(certificate, 2);
    ok = ok && ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serial);
    X509_NAME *subject = X509_get_subject_name(certificate);
    ok = ok && X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, (const unsigned char *)name, -1, -1, 0);
    ok = ok && X509_set_issuer_name(certificate, issuer ? X509_get_subject_name(issuer) : subject);
    ok = ok && ASN1_TIME_set(X509_getm_notBefore(certificate), (time_t)not_before) != NULL;
    ok = ok && ASN1_TIME_set(X509_getm_notAfter(certificate), (time_t)not_after) != NULL;
    ok = ok && X509_set_pubkey(certificate, key);
    X509 *signer = issuer ? issuer : certificate;
    if (ca) {
        ok = ok && pki_extension(certificate, signer, NID_basic_constraints, "critical,CA:TRUE");
        ok = ok && pki_extension(certificate, signer, NID_key_usage, "critical,keyCertSign,cRLSign");
    } else {
        char san[300];
        snprintf(san, sizeof san, "DNS:%s", host);
        ok = ok && pki_extension(certificate, signer, NID_basic_constraints, "critical,CA:FALSE");
        ok = ok && pki_extension(certificate, signer, NID_key_usage, "critical,digitalSignature");
        ok = ok && pki_extension(certificate, signer, NID_ext_key_usage, "serverAuth");
        ok = ok && pki_extension(certificate, signer, NID_subject_alt_name, san);
    }
    ok = ok && pki_extension(certificate, signer, NID_subject_key_identifier, "hash");
    if (issuer) ok = ok && pki_extension(certificate, signer, NID_authority_key_identifier, "keyid:always");
    ok = ok && X509_sign(certificate, issuer_key, EVP_sha256()) > 0;
    if (!ok) {
        X509_free(certificate);
        ERR_clear_error();
        return NULL;
    }
    return certificate;
}

cb_pki *cb_pki_new(void) {
    cb_pki *pki = calloc(1, sizeof *pki);
    if (pki == NULL) return NULL;
    const int64_t from = 1861920000;  // 2029-01-01
    const int64_t to = 2208988800;    // 2040-01-01
    static const char *names[4] = {"Batch Root A", "Batch Intermediate A", "Batch Root B", "Batch Intermediate B"};
    for (int i = 0; i < 4; i++) pki->keys[i] = EVP_EC_gen("P-256");
    pki->leaf_key = EVP_EC_gen("P-256");
    for (int i = 0; i < 4; i += 2) {
        if (pki->keys[i] == NULL || pki->keys[i + 1] == NULL) continue;
        pki->certificates[i] = pki_certificate(pki->keys[i], names[i], NULL, pki->keys[i], 1 + i, from, to, 1, NULL);
        if (pki->certificates[i] == NULL) continue;
        pki->certificates[i + 1] = pki_certificate(pki->keys[i + 1], names[i + 1], pki->certificates[i], pki->keys[i],
                                                   2 + i, from, to, 1, NULL);
    }
    for (int i = 0; i < 4; i++) {
        if (pki->certificates[i] == NULL || pki->leaf_key == NULL) {
            cb_pki_free(pki);
            return NULL;
        }
    }
    return pki;
}

void cb_pki_free(cb_pki *pki) {
    if (pki == NULL) return;
    for (int i = 0; i < 4; i++) {
        X509_free(pki->certificates[i]);
        EVP_PKEY_free(pki->keys[i]);
    }
    EVP_PKEY_free(pki->leaf_key);
    free(pki);
}

static int pki_der(X509 *certificate, unsigned char *out, size_t capacity) {
    int length = i2d_X509(certificate, NULL);
    if (length <= 0 || (size_t)length > capacity) return -1;
    unsigned char *cursor = out;
    return i2d_X509(certificate, &cursor);
}

int cb_pki_ca_der(const cb_pki *pki, int which, unsigned char *out, size_t capacity) {
    if (which < 0 || which > 3) return -1;
    return pki_der(pki->certificates[which], out, capacity);
}

int cb_pki_leaf_der(const cb_pki *pki, int issuer, uint64_t serial, const char *host, int64_t not_before,
                    int64_t not_after, unsigned char *out, size_t capacity) {
    int index = issuer == 0 ? 1 : 3;
    X509 *leaf = pki_certificate(pki->leaf_key, host, pki->certificates[index], pki->keys[index], serial, not_before,
                                 not_after, 0, host);
    if (leaf == NULL) return -1;
    int length = pki_der(leaf, out, capacity);
    X509_free(leaf);
    return length;
}
