import CBaselines
import CertKit
import Foundation

/// An OpenSSL `X509_STORE` holding anchors, for the raw baseline; freed in `deinit`.
///
/// `@unchecked Sendable` is safe: the handle is set once in `init`, only read by the verifications (which the
/// C baseline performs without modifying it, as certkit's own prepared stores rely on) and freed in `deinit`.
final class RawOpenSSLStore: @unchecked Sendable {
    let handle: OpaquePointer
    init(anchors: [Certificate]) {
        handle = DERList(anchors).withPointers { cb_ossl_store_new($0, $1, $2) }
    }
    deinit { cb_ossl_store_free(handle) }
}

/// Pre-parsed OpenSSL certificates (target + untrusted pool); freed in `deinit`.
///
/// `@unchecked Sendable` is safe: the handle is set once in `init`, only read by the verifications (which the
/// C baseline performs without modifying it, as certkit's own prepared stores rely on) and freed in `deinit`.
final class RawOpenSSLChain: @unchecked Sendable {
    let handle: OpaquePointer
    init(_ certificates: [Certificate]) {
        handle = DERList(certificates).withPointers { cb_ossl_chain_new($0, $1, $2) }
    }
    deinit { cb_ossl_chain_free(handle) }
}

/// A GnuTLS trust list holding anchors; freed in `deinit`.
///
/// `@unchecked Sendable` is safe: the handle is set once in `init`, only read by the verifications (which the
/// C baseline performs without modifying it, as certkit's own prepared stores rely on) and freed in `deinit`.
final class RawGnuTLSList: @unchecked Sendable {
    let handle: OpaquePointer
    init(anchors: [Certificate]) {
        handle = DERList(anchors).withPointers { cb_gtls_list_new($0, $1, $2) }
    }
    deinit { cb_gtls_list_free(handle) }
}

/// Pre-parsed GnuTLS certificates; freed in `deinit`.
///
/// `@unchecked Sendable` is safe: the handle is set once in `init`, only read by the verifications (which the
/// C baseline performs without modifying it, as certkit's own prepared stores rely on) and freed in `deinit`.
final class RawGnuTLSChain: @unchecked Sendable {
    let handle: OpaquePointer
    init(_ certificates: [Certificate]) {
        handle = DERList(certificates).withPointers { cb_gtls_chain_new($0, $1, $2) }
    }
    deinit { cb_gtls_chain_free(handle) }
}

/// The raw-library verifications of one workload, prepared once. Each closure verifies once and returns true when
/// the library trusted the chain.
///
/// `@unchecked Sendable` is safe: the closures capture only the `Sendable` handle holders above and immutable
/// C strings and DER lists, which the verifications read and never modify.
struct RawVerifier: @unchecked Sendable {
    let prepared: () -> Int32
    let fromDER: () -> Int32

    static func openssl(chain: [Certificate], anchors: [Certificate], date: Date, host: String) -> RawVerifier {
        let host = CString(host)
        let store = RawOpenSSLStore(anchors: anchors)
        let parsed = RawOpenSSLChain(chain)
        let ders = DERList(chain)
        let when = Int64(date.timeIntervalSince1970)
        return RawVerifier(
            prepared: {
                withExtendedLifetime((store, parsed)) { host.with { cb_ossl_verify(store.handle, parsed.handle, when, $0) } }
            },
            fromDER: {
                withExtendedLifetime(store) {
                    ders.withPointers { bytes, lengths, count in host.with { cb_ossl_verify_der(store.handle, bytes, lengths, count, when, $0) } }
                }
            })
    }

    static func gnutls(chain: [Certificate], anchors: [Certificate], host: String) -> RawVerifier {
        let host = CString(host)
        let list = RawGnuTLSList(anchors: anchors)
        let parsed = RawGnuTLSChain(chain)
        let ders = DERList(chain)
        return RawVerifier(
            prepared: { withExtendedLifetime((list, parsed)) { host.with { cb_gtls_verify(list.handle, parsed.handle, $0) } } },
            fromDER: {
                withExtendedLifetime(list) { ders.withPointers { bytes, lengths, count in host.with { cb_gtls_verify_der(list.handle, bytes, lengths, count, $0) } } }
            })
    }
}

/// A NUL-terminated copy of a string, converted once rather than on every call.
struct CString: Sendable {
    private let bytes: [CChar]
    init(_ text: String) { bytes = Array(text.utf8CString) }
    func with<R>(_ body: (UnsafePointer<CChar>) -> R) -> R { bytes.withUnsafeBufferPointer { body($0.baseAddress!) } }
}
