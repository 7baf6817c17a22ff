import CertKit
import CertKitGnuTLS
import CertKitOpenSSL

/// The backends measured, and how to build one with or without its parsed-certificate cache.
enum BackendKind: String, CaseIterable {
    case openssl, gnutls

    /// A backend instance; `handleCache` turns the backend's parsed-certificate cache on or off.
    func make(handleCache: Bool) -> any TrustBackend {
        switch self {
        case .openssl: OpenSSLBackend(certificateCacheCapacity: handleCache ? 256 : 0)
        case .gnutls: GnuTLSBackend(certificateCacheCapacity: handleCache ? 256 : 0)
        }
    }

    /// The raw-library verifier for `workload`.
    func raw(_ workload: ChainWorkload) -> RawVerifier {
        switch self {
        case .openssl: .openssl(chain: workload.chain, anchors: workload.anchors, date: workload.date, host: workload.host)
        case .gnutls: .gnutls(chain: workload.gnutlsChain ?? workload.chain, anchors: workload.anchors, host: workload.host)
        }
    }
}
