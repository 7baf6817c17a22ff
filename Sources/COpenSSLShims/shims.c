#include "COpenSSLShims.h"

STACK_OF(X509) *certkit_sk_X509_new_null(void) { return sk_X509_new_null(); }
int certkit_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) { return sk_X509_push(stack, certificate); }
int certkit_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
X509 *certkit_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
void certkit_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

STACK_OF(X509_CRL) *certkit_sk_X509_CRL_new_null(void) { return sk_X509_CRL_new_null(); }
int certkit_sk_X509_CRL_push(STACK_OF(X509_CRL) *stack, X509_CRL *crl) { return sk_X509_CRL_push(stack, crl); }
void certkit_sk_X509_CRL_pop_free(STACK_OF(X509_CRL) *stack) { sk_X509_CRL_pop_free(stack, X509_CRL_free); }
int certkit_X509_STORE_CTX_get_ex_new_index(void) {
    return X509_STORE_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
}

int certkit_sk_PKCS7_num(const STACK_OF(PKCS7) *stack) { return sk_PKCS7_num(stack); }
PKCS7 *certkit_sk_PKCS7_value(const STACK_OF(PKCS7) *stack, int index) { return sk_PKCS7_value(stack, index); }
void certkit_sk_PKCS7_pop_free(STACK_OF(PKCS7) *stack) { sk_PKCS7_pop_free(stack, PKCS7_free); }
int certkit_PKCS7_type_is_encrypted(const PKCS7 *p7) { return PKCS7_type_is_encrypted(p7); }
int certkit_sk_PKCS12_SAFEBAG_num(const STACK_OF(PKCS12_SAFEBAG) *stack) { return sk_PKCS12_SAFEBAG_num(stack); }
PKCS12_SAFEBAG *certkit_sk_PKCS12_SAFEBAG_value(const STACK_OF(PKCS12_SAFEBAG) *stack, int index) {
    return sk_PKCS12_SAFEBAG_value(stack, index);
}
void certkit_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *stack) {
    sk_PKCS12_SAFEBAG_pop_free(stack, PKCS12_SAFEBAG_free);
}

STACK_OF(SCT) *certkit_sk_SCT_new_null(void) { return sk_SCT_new_null(); }
int certkit_sk_SCT_push(STACK_OF(SCT) *stack, SCT *sct) { return sk_SCT_push(stack, sct); }
int certkit_sk_SCT_num(const STACK_OF(SCT) *stack) { return sk_SCT_num(stack); }
SCT *certkit_sk_SCT_value(const STACK_OF(SCT) *stack, int index) { return sk_SCT_value(stack, index); }
void certkit_sk_SCT_free(STACK_OF(SCT) *stack) { sk_SCT_free(stack); }
