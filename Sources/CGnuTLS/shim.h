#ifndef CERTKIT_CGNUTLS_SHIM_H
#define CERTKIT_CGNUTLS_SHIM_H
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/pkcs12.h>
#endif
