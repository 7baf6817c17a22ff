import CertKit
internal import COpenSSL

/// Owns one `EVP_MD` fetched from the default provider (`EVP_MD_fetch`), freed exactly once in `deinit`.
///
/// OpenSSL 3.0 turns a legacy `EVP_sha256()` into a provider implementation on every `EVP_Digest`, a name lookup
/// under a process-wide lock; the digests certkit computes for every certificate of every report (fingerprints,
/// pins) use the implementations fetched here once per process instead. A fetched `EVP_MD` is immutable and
/// reference-counted by OpenSSL, so one is shared by all threads (hence `@unchecked Sendable`).
final class OpenSSLFetchedDigest: @unchecked Sendable {
    /// The `EVP_MD *`.
    let handle: OpaquePointer

    private init?(_ name: String) {
        guard let md = EVP_MD_fetch(nil, name, nil) else { return nil }
        handle = md
    }

    deinit { EVP_MD_free(handle) }

    /// SHA-1, or nil when the provider has none.
    static let sha1 = OpenSSLFetchedDigest("SHA1")
    /// SHA-256, or nil when the provider has none.
    static let sha256 = OpenSSLFetchedDigest("SHA256")
}
