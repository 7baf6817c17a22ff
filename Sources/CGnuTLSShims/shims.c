#include "CGnuTLSShims.h"

void certkit_gnutls_free(void *pointer) { gnutls_free(pointer); }
