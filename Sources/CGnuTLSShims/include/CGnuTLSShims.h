#ifndef CERTKIT_CGNUTLS_SHIMS_H
#define CERTKIT_CGNUTLS_SHIMS_H
// What Swift cannot import from GnuTLS: gnutls_free is a mutable global function pointer.
#include <gnutls/gnutls.h>

void certkit_gnutls_free(void *pointer);

#endif
