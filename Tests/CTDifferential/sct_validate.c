/*
 * OpenSSL's own Certificate Transparency code as a reference for certkit's SCT verification (CTDifferentialTests).
 *
 *   sct_validate LEAF.pem ISSUER.pem LOGS.cnf TIME_MS embedded
 *   sct_validate LEAF.pem ISSUER.pem LOGS.cnf TIME_MS tls LIST.bin
 *
 * LOGS.cnf is a CTLOG_STORE file (enabled_logs = ..., one section per log with its base64 key). The SCTs are the
 * leaf's embedded ones (its 1.3.6.1.4.1.11129.2.4.2 extension, verified as precertificate entries) or a TLS-encoded
 * SignedCertificateTimestampList (verified as x509 entries). One line per SCT: "valid" when SCT_validate returns 1,
 * else "invalid <status>". Exit 0 when the inputs could be read, 2 otherwise.
 */
#include <openssl/ct.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static X509 *read_certificate(const char *path) {
    FILE *file = fopen(path, "r");
    if (file == NULL) return NULL;
    X509 *certificate = PEM_read_X509(file, NULL, NULL, NULL);
    fclose(file);
    return certificate;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: sct_validate LEAF.pem ISSUER.pem LOGS.cnf TIME_MS embedded|tls [LIST.bin]\n");
        return 2;
    }
    X509 *leaf = read_certificate(argv[1]);
    X509 *issuer = read_certificate(argv[2]);
    CTLOG_STORE *store = CTLOG_STORE_new();
    if (leaf == NULL || issuer == NULL || store == NULL || CTLOG_STORE_load_file(store, argv[3]) != 1) {
        fprintf(stderr, "sct_validate: cannot read the certificates or the log store\n");
        return 2;
    }
    STACK_OF(SCT) *scts = NULL;
    if (strcmp(argv[5], "embedded") == 0) {
        scts = X509_get_ext_d2i(leaf, NID_ct_precert_scts, NULL, NULL);
    } else if (argc == 7) {
        FILE *file = fopen(argv[6], "rb");
        if (file == NULL) return 2;
        unsigned char buffer[65600];
        size_t length = fread(buffer, 1, sizeof buffer, file);
        fclose(file);
        const unsigned char *cursor = buffer;
        scts = o2i_SCT_LIST(NULL, &cursor, length);
        for (int index = 0; scts != NULL && index < sk_SCT_num(scts); index++) {
            SCT_set_source(sk_SCT_value(scts, index), SCT_SOURCE_TLS_EXTENSION);
        }
    }
    if (scts == NULL) {
        printf("no SCT list\n");
        return 0;
    }
    CT_POLICY_EVAL_CTX *context = CT_POLICY_EVAL_CTX_new();
    CT_POLICY_EVAL_CTX_set1_cert(context, leaf);
    CT_POLICY_EVAL_CTX_set1_issuer(context, issuer);
    CT_POLICY_EVAL_CTX_set_shared_CTLOG_STORE(context, store);
    CT_POLICY_EVAL_CTX_set_time(context, strtoull(argv[4], NULL, 10));
    for (int index = 0; index < sk_SCT_num(scts); index++) {
        SCT *sct = sk_SCT_value(scts, index);
        int result = SCT_validate(sct, context);
        if (result == 1) {
            printf("valid\n");
        } else {
            printf("invalid %d\n", (int)SCT_get_validation_status(sct));
        }
    }
    SCT_LIST_free(scts);
    CT_POLICY_EVAL_CTX_free(context);
    CTLOG_STORE_free(store);
    X509_free(leaf);
    X509_free(issuer);
    return 0;
}
