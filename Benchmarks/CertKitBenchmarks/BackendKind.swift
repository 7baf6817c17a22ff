import CertKit
import CertKitBackends

/// The backends measured, each beside its library's raw C baseline (which is why this list names the libraries:
/// a baseline is written against one library's C API), and how to build one with or without its
/// parsed-certificate cache. The backends themselves come from the one registry.
enum BackendKind: String, CaseIterable {
    case openssl, gnutls

    /// A backend instance; `handleCache` turns the backend's parsed-certificate cache on or off.
    func make(handleCache: Bool) -> any TrustBackend {
        guard let entry = BackendRegistry.standard.entry(named: rawValue) else {
            preconditionFailure("the registry has no backend \(rawValue)")
        }
        return entry.backend(certificateCacheCapacity: handleCache ? 256 : 0)
    }

    /// The raw-library verifier for `workload`.
    func raw(_ workload: ChainWorkload) -> RawVerifier {
        switch self {
        case .openssl: .openssl(chain: workload.chain, anchors: workload.anchors, date: workload.date, host: workload.host)
        case .gnutls: .gnutls(chain: workload.gnutlsChain ?? workload.chain, anchors: workload.anchors, host: workload.host)
        }
    }
}
