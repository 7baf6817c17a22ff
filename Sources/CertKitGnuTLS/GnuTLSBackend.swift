import CertKit
internal import CGnuTLS
import Foundation

/// The GnuTLS backend (GnuTLS 3.7): imports certificates, verifies one candidate path at a date, checks CRLs
/// and computes digests with the system GnuTLS. Safe to use from any number of threads at once.
package struct GnuTLSBackend: TrustBackend {
    /// `gnutls`.
    package var name: String { "gnutls" }

    /// One backend for the process (its caches shared by every evaluator that uses ``Backend/gnutls``).
    package static let shared = GnuTLSBackend()

    /// Imported `gnutls_x509_crt_t` handles of path certificates, keyed by their DER, so a certificate
    /// seen again is not imported again. Cached handles are only read afterwards (verification, getters), as
    /// the certificates of a trust list shared by many sessions are.
    let certificateCache: CertificateHandleCache<GnuTLSCertificate>

    /// Creates the backend. `certificateCacheCapacity` bounds the parsed-certificate cache (least recently used
    /// handles are dropped first); 0 turns it off.
    package init(certificateCacheCapacity: Int = 256) {
        certificateCache = CertificateHandleCache(capacity: certificateCacheCapacity)
        keyCache = CertificateHandleCache(capacity: certificateCacheCapacity)
    }

    /// Imported signer keys (`gnutls_pubkey_t`), keyed by their SubjectPublicKeyInfo DER; only read afterwards.
    let keyCache: CertificateHandleCache<GnuTLSPublicKey>

    /// Imports `der` with `gnutls_x509_crt_import`; the bytes must be exactly one certificate (GnuTLS would
    /// ignore trailing bytes, so the outer DER length and the re-exported encoding are compared with the input).
    /// The handle is kept in the certificate cache, so the path verification that usually follows does not import
    /// the certificate again.
    package func checkImport(_ der: [UInt8]) throws(BackendError) {
        let certificate: GnuTLSCertificate
        do {
            certificate = try certificateCache.handle(for: der) { der throws(GnuTLSCode) in
                try GnuTLSCertificate(importing: der)
            }
        } catch {
            throw BackendError(.refusedInput, "gnutls_x509_crt_import: \(error.message)")
        }
        guard DERFraming.outerLength(of: der) == der.count else {
            throw BackendError(.refusedInput, "gnutls_x509_crt_import: input is not exactly one DER certificate (trailing or missing bytes)")
        }
        guard try certificate.exportDER() == der else {
            throw BackendError(.refusedInput, "gnutls_x509_crt_import: GnuTLS did not consume exactly the input")
        }
    }

    /// `gnutls_hash_fast`.
    package func digest(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        try GnuTLSLibrary.ensureInitialized()
        let (library, length) = switch algorithm {
        case .sha1: (GNUTLS_DIG_SHA1, 20)
        case .sha256: (GNUTLS_DIG_SHA256, 32)
        }
        var output = [UInt8](repeating: 0, count: length)
        let code = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                gnutls_hash_fast(library, input.baseAddress, input.count, out.baseAddress)
            }
        }
        try GnuTLSLibrary.check(code, "gnutls_hash_fast")
        return output
    }

    /// One GnuTLS trust list per anchor, built once and shared read-only.
    package func prepareAnchors(_ anchors: [Certificate]) throws(BackendError) -> any PreparedAnchorStore {
        try GnuTLSAnchorStore(anchors: anchors)
    }

    /// Verifies one signature with `gnutls_pubkey_verify_data2` as `input`'s scheme says.
    package func verifySignature(_ input: SignatureInput) throws(BackendError) -> SignatureVerdict {
        Self.verify(input, keys: keyCache)
    }

    /// Verifies a link signed by a prepared anchor with the key kept with the anchors.
    package func verifySignature(
        _ input: SignatureInput, signedBy anchor: Certificate, in store: any PreparedAnchorStore
    ) throws(BackendError) -> SignatureVerdict {
        guard let prepared = store as? GnuTLSAnchorStore else { return try verifySignature(input) }
        return Self.verify(input, keys: prepared.signerKeys)
    }

    /// Verifies `input` with the signer's key from `keys` (imported on a miss); a key GnuTLS cannot import makes
    /// the signature invalid.
    private static func verify(_ input: SignatureInput, keys: CertificateHandleCache<GnuTLSPublicKey>) -> SignatureVerdict {
        let key: GnuTLSPublicKey
        do {
            key = try keys.handle(for: input.signerKey.derEncoded) { spki throws(BackendError) in
                try GnuTLSPublicKey(spki: spki)
            }
        } catch {
            return .invalid("the signer's public key: \(error.message)")
        }
        return key.verify(input)
    }

    /// The digest GnuTLS reads in the certificate's signature algorithm (`gnutls_sign_get_hash_algorithm`).
    package func librarySignatureDigest(of certificate: Certificate) -> LibrarySignatureDigest {
        guard let handle = try? certificateCache.handle(for: certificate.derEncoded, make: { der throws(GnuTLSCode) in
            try GnuTLSCertificate(importing: der)
        }) else { return .unknown }
        return handle.signatureDigest
    }

    /// GnuTLS's verdict on exactly `path` at `date` (see ``GnuTLSLibraryVerdict``).
    package func libraryVerdict(
        on path: CandidatePath, anchors: any PreparedAnchorStore, at date: Date, crls: [CertificateRevocationList]
    ) throws(BackendError) -> [LibraryFact] {
        guard let store = anchors as? GnuTLSAnchorStore else {
            throw BackendError(.wrongBackend, "gnutls: anchors were prepared by another backend")
        }
        return try GnuTLSLibraryVerdict(path: path, store: store, date: date, certificateCache: certificateCache)
            .run(crls: crls)
    }
}

extension Backend {
    /// GnuTLS: signatures, digests and key import through libgnutls, e.g. `TrustEvaluator(backend: .gnutls)`.
    public static var gnutls: Backend { Backend(GnuTLSBackend.shared) }
}
