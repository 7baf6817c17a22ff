import CBaselines
import CertKit

/// The signature floor of one path: the raw library verifying each link's signature (tbsCertificate, signature,
/// issuer's SubjectPublicKeyInfo) with public keys built once, and nothing else. certkit cannot go below it.
///
/// `@unchecked Sendable` is safe: the C handle is set once in `init`, only read by the verifications and freed
/// in `deinit`.
final class SignatureFloor: @unchecked Sendable {
    private let verifyOnce: () -> Int32
    private let release: () -> Void
    /// The number of links (signatures) on the path.
    let links: Int

    /// The floor of `path` (leaf first, ending at the anchor) with `kind`'s library.
    init(path: [Certificate], backend kind: BackendKind) {
        let signed = Array(path.dropLast())
        let signers = Array(path.dropFirst())
        let spkis = DERList(bytes: signers.map(\.publicKey.derEncoded))
        let tbs = DERList(bytes: signed.map(\.tbsCertificateBytes))
        let signatures = DERList(bytes: signed.map(\.signatureBytes))
        let names = CString(signed.map { Self.digestName($0.signatureAlgorithm.scheme) }.joined(separator: ","))
        links = signed.count
        /// Calls a library's `*_links_new` with the flat buffers.
        func make(
            _ create: (UnsafePointer<UInt8>, UnsafePointer<Int>, UnsafePointer<UInt8>, UnsafePointer<Int>,
                       UnsafePointer<UInt8>, UnsafePointer<Int>, UnsafePointer<CChar>, Int) -> OpaquePointer?
        ) -> OpaquePointer {
            let handle = spkis.withPointers { spki, spkiLengths, count in
                tbs.withPointers { tbsBytes, tbsLengths, _ in
                    signatures.withPointers { sigBytes, sigLengths, _ in
                        names.with { create(spki, spkiLengths, tbsBytes, tbsLengths, sigBytes, sigLengths, $0, count) }
                    }
                }
            }
            guard let handle else { fail("the \(kind) signature floor could not build the path's keys") }
            return handle
        }
        switch kind {
        case .openssl:
            let handle = make(cb_ossl_links_new)
            verifyOnce = { cb_ossl_links_verify(handle) }
            release = { cb_ossl_links_free(handle) }
        case .gnutls:
            let handle = make(cb_gtls_links_new)
            verifyOnce = { cb_gtls_links_verify(handle) }
            release = { cb_gtls_links_free(handle) }
        }
        let verified = verify()
        if verified != links { fail("the \(kind) signature floor verified \(verified) of \(links) links") }
    }

    deinit { release() }

    /// Verifies every link once; returns how many verified.
    @discardableResult
    func verify() -> Int { Int(verifyOnce()) }

    /// The digest name both libraries take (`SHA256`) for a link's scheme (RSA PKCS#1 v1.5 and ECDSA: what the
    /// fixtures use; GnuTLS pairs it with the key's algorithm).
    private static func digestName(_ scheme: SignatureScheme?) -> String {
        switch scheme {
        case .rsaPKCS1(let hash), .ecdsa(let hash): hash.rawValue.uppercased()
        default: fail("the signature floor measures RSA PKCS#1 and ECDSA links only, not \(String(describing: scheme))")
        }
    }
}
