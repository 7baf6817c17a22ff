#ifndef CERTKIT_CGNUTLS_SHIMS_H
#define CERTKIT_CGNUTLS_SHIMS_H
// What Swift cannot import from GnuTLS directly: gnutls_free is a mutable global function pointer, the
// profile flags are a function-like macro, and the verification time is a process-wide function pointer.
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <time.h>

/// Calls gnutls_free.
void certkit_gnutls_free(void *pointer);

/// GNUTLS_PROFILE_TO_VFLAGS(profile).
unsigned int certkit_gnutls_profile_flags(gnutls_certificate_verification_profiles_t profile);

/// Installs, once per process, a GnuTLS time function that returns the calling thread's override when one is
/// set (see certkit_gnutls_set_verify_time) and the real clock otherwise. Idempotent.
void certkit_gnutls_install_time_function(void);

/// Makes GnuTLS see `when` as "now" on the calling thread until certkit_gnutls_clear_verify_time().
void certkit_gnutls_set_verify_time(time_t when);

/// Removes the calling thread's override: GnuTLS sees the real clock again.
void certkit_gnutls_clear_verify_time(void);

/// The time GnuTLS sees on the calling thread (the override or the real clock), for tests.
time_t certkit_gnutls_current_time(void);

#endif
