#ifndef CERTKIT_COPENSSL_SHIMS_H
#define CERTKIT_COPENSSL_SHIMS_H
// Functions for OpenSSL macros that Swift cannot import. Nothing else belongs here.
#include <openssl/x509.h>
#include <openssl/pkcs12.h>
#include <openssl/ct.h>

STACK_OF(X509) *certkit_sk_X509_new_null(void);
int certkit_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate);
int certkit_sk_X509_num(const STACK_OF(X509) *stack);
X509 *certkit_sk_X509_value(const STACK_OF(X509) *stack, int index);
void certkit_sk_X509_pop_free(STACK_OF(X509) *stack);

STACK_OF(X509_CRL) *certkit_sk_X509_CRL_new_null(void);
int certkit_sk_X509_CRL_push(STACK_OF(X509_CRL) *stack, X509_CRL *crl);
void certkit_sk_X509_CRL_pop_free(STACK_OF(X509_CRL) *stack);
int certkit_X509_STORE_CTX_get_ex_new_index(void);

int certkit_sk_PKCS7_num(const STACK_OF(PKCS7) *stack);
PKCS7 *certkit_sk_PKCS7_value(const STACK_OF(PKCS7) *stack, int index);
void certkit_sk_PKCS7_pop_free(STACK_OF(PKCS7) *stack);
int certkit_PKCS7_type_is_encrypted(const PKCS7 *p7);
int certkit_sk_PKCS12_SAFEBAG_num(const STACK_OF(PKCS12_SAFEBAG) *stack);
PKCS12_SAFEBAG *certkit_sk_PKCS12_SAFEBAG_value(const STACK_OF(PKCS12_SAFEBAG) *stack, int index);
void certkit_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *stack);


STACK_OF(SCT) *certkit_sk_SCT_new_null(void);
int certkit_sk_SCT_push(STACK_OF(SCT) *stack, SCT *sct);
int certkit_sk_SCT_num(const STACK_OF(SCT) *stack);
SCT *certkit_sk_SCT_value(const STACK_OF(SCT) *stack, int index);
void certkit_sk_SCT_free(STACK_OF(SCT) *stack);

#endif
