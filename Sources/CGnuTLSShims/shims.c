#include "CGnuTLSShims.h"
#include <pthread.h>

void certkit_gnutls_free(void *pointer) { gnutls_free(pointer); }

unsigned int certkit_gnutls_profile_flags(gnutls_certificate_verification_profiles_t profile) {
    return GNUTLS_PROFILE_TO_VFLAGS(profile);
}

// Per-thread verification time. GnuTLS has no per-call time: every verification asks the one process-wide
// time function. Each thread sets its own override around a synchronous verify call, so threads verifying at
// different dates at once never see each other's date; threads without an override get the real clock.
static _Thread_local int certkit_override_active = 0;
static _Thread_local time_t certkit_override_time = 0;

static time_t certkit_time(time_t *out) {
    time_t now = certkit_override_active ? certkit_override_time : time(NULL);
    if (out != NULL) { *out = now; }
    return now;
}

static pthread_once_t certkit_time_once = PTHREAD_ONCE_INIT;

static void certkit_install_time_function_once(void) { gnutls_global_set_time_function(certkit_time); }

void certkit_gnutls_install_time_function(void) { pthread_once(&certkit_time_once, certkit_install_time_function_once); }

void certkit_gnutls_set_verify_time(time_t when) {
    certkit_override_time = when;
    certkit_override_active = 1;
}

void certkit_gnutls_clear_verify_time(void) { certkit_override_active = 0; }

time_t certkit_gnutls_current_time(void) { return certkit_time(NULL); }
