import CertKit
import Foundation
internal import COpenSSL

/// The OpenSSL 3 backend (Docs/Architecture.md, "One owner per rule"): imports, digests and path verification with libcrypto.
///
/// Stateless and `Sendable`: share ``shared`` (or ``TrustBackend/openssl``) across threads. Anchors prepared
/// with ``prepareAnchors(_:)`` are compiled once and may be used by any number of concurrent verifications.
package struct OpenSSLBackend: TrustBackend {
    /// A backend instance to share.
    package static let shared = OpenSSLBackend()

    /// Parsed `X509` handles of path certificates, keyed by their DER, so an intermediate (or a leaf)
    /// seen again is not decoded again. Handles are shared read-only by concurrent verifications (OpenSSL
    /// locks the lazily cached extension data of an `X509`).
    let certificateCache: CertificateHandleCache<OpenSSLCertificate>

    /// Creates a backend. `certificateCacheCapacity` bounds each of its caches (parsed certificates, signer keys,
    /// verification templates; least recently used entries are dropped first); 0 turns them off.
    package init(certificateCacheCapacity: Int = 256) {
        certificateCache = CertificateHandleCache(capacity: certificateCacheCapacity)
        keyCache = CertificateHandleCache(capacity: certificateCacheCapacity)
        verifyTemplateCache = CertificateHandleCache(capacity: certificateCacheCapacity)
    }

    /// Decoded signer keys (`EVP_PKEY`), keyed by their SubjectPublicKeyInfo DER: OpenSSL 3's `d2i_PUBKEY` costs
    /// more than the RSA verification itself. Keys are only read afterwards (each verification has its own
    /// `EVP_MD_CTX`).
    let keyCache: CertificateHandleCache<OpenSSLPublicKey>

    /// Verification contexts initialised once per signer key and scheme (``OpenSSLVerifyTemplate``), keyed by the
    /// SPKI DER and the scheme: each verification copies one instead of running `EVP_DigestVerifyInit`, whose
    /// provider fetches cost more than a copy and serialise threads on OpenSSL 3.0's property-store lock.
    let verifyTemplateCache: CertificateHandleCache<OpenSSLVerifyTemplate>

    /// `openssl`.
    package var name: String { "openssl" }

    /// Imports `der` with `d2i_X509`, which must consume exactly all of it. The handle is kept in the certificate
    /// cache, so the path verification that usually follows does not decode the certificate again.
    package func checkImport(_ der: [UInt8]) throws(BackendError) {
        OpenSSLErrorQueue.clear()
        _ = try certificateCache.handle(for: der) { der throws(BackendError) in try OpenSSLCertificate(der: der) }
    }

    /// Computes SHA-1 or SHA-256 with `EVP_Digest`.
    package func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        try OpenSSLDigest.compute(algorithm, of: bytes)
    }

    /// Compiles `anchors` into per-anchor `X509_STORE`s, once (see ``OpenSSLPreparedAnchors``).
    package func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore {
        OpenSSLErrorQueue.clear()
        return try OpenSSLPreparedAnchors(anchors: anchors)
    }

    /// Verifies one signature with `EVP_DigestVerify` as `input`'s scheme says.
    package func verifySignature(_ input: SignatureInput) throws(BackendError) -> SignatureVerdict {
        try OpenSSLSignatureVerifier.verify(input, keys: keyCache, templates: verifyTemplateCache)
    }

    /// Verifies a link signed by a prepared anchor with the key and template kept with the anchors.
    package func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict {
        guard let prepared = store as? OpenSSLPreparedAnchors else { return try verifySignature(input) }
        return try OpenSSLSignatureVerifier.verify(input, keys: prepared.signerKeys, templates: prepared.verifyTemplates)
    }

    /// The digest `X509_get_signature_info` reads in the certificate's signature algorithm.
    package func librarySignatureDigest(of certificate: Certificate) -> LibrarySignatureDigest {
        OpenSSLErrorQueue.clear()
        guard let handle = try? certificateCache.handle(for: certificate.derEncoded, make: { der throws(BackendError) in
            try OpenSSLCertificate(der: der)
        }) else { return .unknown }
        return OpenSSLSignatureVerifier.digest(of: handle)
    }

    /// OpenSSL's verdict on exactly `path` at `date` with a fresh `X509_STORE_CTX`, every reported error mapped.
    package func libraryVerdict(
        on path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact] {
        OpenSSLErrorQueue.clear()
        guard let prepared = anchors as? OpenSSLPreparedAnchors else {
            throw BackendError(.wrongBackend, "openssl: the anchor store was not prepared by the OpenSSL backend")
        }
        return try OpenSSLPathVerification(
            path: path, anchors: prepared, date: date, crls: crls, certificateCache: certificateCache
        ).run()
    }
}

extension Backend {
    /// OpenSSL: signatures, digests and key import through libcrypto, e.g. `TrustEvaluator(backend: .openssl)`.
    public static var openssl: Backend { Backend(OpenSSLBackend.shared) }
}
