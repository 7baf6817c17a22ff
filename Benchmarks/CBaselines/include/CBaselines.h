#ifndef CBASELINES_H
#define CBASELINES_H
// Raw library calls the benchmarks compare certkit against. Certificates are passed as one buffer of
// concatenated DER encodings plus an array of their lengths. Opaque handles are created once ("prepared")
// and freed by the matching *_free function.
#include <stddef.h>
#include <stdint.h>

// ---- OpenSSL ----
typedef struct cb_ossl_store cb_ossl_store;
typedef struct cb_ossl_chain cb_ossl_chain;

/// PEM_read_bio_X509 + i2d_X509 over every certificate of `pem`; returns the number converted (-1 on error).
int cb_ossl_pem_to_der(const char *pem, size_t length);
/// An X509_STORE trusting the given anchors.
cb_ossl_store *cb_ossl_store_new(const unsigned char *ders, const size_t *lengths, size_t count);
void cb_ossl_store_free(cb_ossl_store *store);
/// Pre-parsed certificates: the first is the target, the rest the untrusted pool.
cb_ossl_chain *cb_ossl_chain_new(const unsigned char *ders, const size_t *lengths, size_t count);
void cb_ossl_chain_free(cb_ossl_chain *chain);
/// X509_verify_cert of a pre-parsed chain at `when` (seconds since 1970), TLS server purpose and host `host`
/// (NULL: none). Returns X509_V_OK (0) when trusted, else the X509_V_ERR code (negative on library failure).
int cb_ossl_verify(const cb_ossl_store *store, const cb_ossl_chain *chain, int64_t when, const char *host);
/// d2i_X509 of every certificate, then the same verification, then frees.
int cb_ossl_verify_der(const cb_ossl_store *store, const unsigned char *ders, const size_t *lengths, size_t count,
                       int64_t when, const char *host);

// ---- GnuTLS ----
typedef struct cb_gtls_list cb_gtls_list;
typedef struct cb_gtls_chain cb_gtls_chain;

/// A gnutls_x509_trust_list_t holding the anchors as CAs. NULL on error.
cb_gtls_list *cb_gtls_list_new(const unsigned char *ders, const size_t *lengths, size_t count);
void cb_gtls_list_free(cb_gtls_list *list);
cb_gtls_chain *cb_gtls_chain_new(const unsigned char *ders, const size_t *lengths, size_t count);
void cb_gtls_chain_free(cb_gtls_chain *chain);
/// gnutls_x509_trust_list_verify_crt2 with TLS server purpose and host `host` (NULL: none). GnuTLS has no
/// per-call time, and the fixtures are dated in the future, so time checks are disabled (the comparisons are
/// trivial next to the signatures). Returns the status word (0 when trusted), or a negative GnuTLS error.
int cb_gtls_verify(const cb_gtls_list *list, const cb_gtls_chain *chain, const char *host);
/// gnutls_x509_crt_import of every certificate, then the same verification, then frees.
int cb_gtls_verify_der(const cb_gtls_list *list, const unsigned char *ders, const size_t *lengths, size_t count,
                       const char *host);

// ---- A generated PKI for the batch benchmarks and corpora (OpenSSL) ----
typedef struct cb_pki cb_pki;

/// Two ECDSA P-256 hierarchies, each a root and an intermediate (CA:TRUE critical, keyCertSign|cRLSign
/// critical, SKI/AKI, valid 2029-2040), and one leaf key shared by every leaf made. NULL on error.
cb_pki *cb_pki_new(void);
void cb_pki_free(cb_pki *pki);
/// The DER of CA `which` (0 root A, 1 intermediate A, 2 root B, 3 intermediate B) into `out` (at most `capacity`
/// bytes); returns its length, or -1.
int cb_pki_ca_der(const cb_pki *pki, int which, unsigned char *out, size_t capacity);
/// A new leaf (CN and SAN dNSName `host`, serverAuth, digitalSignature, CA:FALSE, SKI/AKI, serial `serial`) issued
/// by intermediate A (`issuer` 0) or B (1), valid from `not_before` to `not_after` (seconds since 1970); its DER
/// into `out`. Returns the length, or -1.
int cb_pki_leaf_der(const cb_pki *pki, int issuer, uint64_t serial, const char *host, int64_t not_before,
                    int64_t not_after, unsigned char *out, size_t capacity);

// ---- The signature floor (signature_floor.c) ----
// `count` links: link i is the signature sigs[i] over tbs[i] by the DER SubjectPublicKeyInfo spkis[i] (each a
// buffer of concatenated encodings plus lengths). Keys are built once, in *_new.
typedef struct cb_ossl_links cb_ossl_links;
typedef struct cb_gtls_links cb_gtls_links;

/// `digests`: comma-separated OpenSSL digest names, one per link (e.g. "SHA256,SHA384"). NULL on error.
cb_ossl_links *cb_ossl_links_new(const unsigned char *spkis, const size_t *spki_lengths, const unsigned char *tbs,
                                 const size_t *tbs_lengths, const unsigned char *sigs, const size_t *sig_lengths,
                                 const char *digests, size_t count);
void cb_ossl_links_free(cb_ossl_links *links);
/// EVP_DigestVerify of every link with its pre-built key; returns the number that verified.
int cb_ossl_links_verify(const cb_ossl_links *links);
/// `digests`: comma-separated GnuTLS digest names, one per link (e.g. "SHA256"), each paired with its key's
/// algorithm (gnutls_pk_to_sign). NULL on error.
cb_gtls_links *cb_gtls_links_new(const unsigned char *spkis, const size_t *spki_lengths, const unsigned char *tbs,
                                 const size_t *tbs_lengths, const unsigned char *sigs, const size_t *sig_lengths,
                                 const char *digests, size_t count);
void cb_gtls_links_free(cb_gtls_links *links);
/// gnutls_pubkey_verify_data2 of every link with its pre-built key; returns the number that verified.
int cb_gtls_links_verify(const cb_gtls_links *links);

#endif
