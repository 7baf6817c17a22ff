/// `WeakKeySize` for keys trustd could not use, on every certificate of the path (anchor included), under every
/// policy:
/// - `TrustRules/publicKeyEncoding` (every profile): the SubjectPublicKeyInfo is encoded as its algorithm's RFC
///   requires (`PublicKeyInfo/encodingProblem`);
/// - `TrustRules/appleKeyAlgorithm` (apple): the key is RSA (rsaEncryption, not an id-RSASSA-PSS key) or ECDSA on a
///   NIST prime curve (P-192 to P-521), the keys
///   Security.framework can create from a certificate; trustd counts any other key as weak.
/// - `TrustRules/verifiableKeyAlgorithm` (every profile): the key is RSA, DSA, ECDSA on a NIST prime curve, Ed25519 or
///   Ed448, the keys both backends' libraries verify (GnuTLS has no secp256k1 or Brainpool curves), beside the
///   apple rule where both apply. `PathSignatureCheck` never hands a signature by such a key to a library
///   (one library would verify it, the other could not, and the path would be trusted by one backend's core and
///   missing an issuer on the other's): this fatal rule is what fails the path, the same on both backends.
/// Fatal, as trustd's WeakKeySize is: no exception turns an unusable key into a trusted one.
package struct PublicKeyUsabilityCheck: PathCheck {
    /// The curves Security.framework supports (certkit's names for them).
    static let appleCurves: Set<String> = ["prime192v1", "secp224r1", "prime256v1", "secp384r1", "secp521r1"]

    package init() {}

    /// True when `algorithm` is one trustd can use.
    static func isAppleKeyAlgorithm(_ algorithm: PublicKeyInfo.Algorithm) -> Bool {
        switch algorithm {
        case .rsa: true
        case .ec(let curve, _): appleCurves.contains(curve) || curve == PublicKeyInfo.explicitCurve
        case .dsa, .ed25519, .ed448, .other: false
        }
    }

    /// True for the key types the rfc5280 profile allows beyond Apple's: DSA, Ed25519, Ed448.
    static func isRFC5280OnlyKeyAlgorithm(_ algorithm: PublicKeyInfo.Algorithm) -> Bool {
        switch algorithm {
        case .dsa, .ed25519, .ed448: true
        case .rsa, .ec, .other: false
        }
    }

    /// True when both backends' libraries verify signatures by a key of `algorithm` (``TrustRules/verifiableKeyAlgorithm``):
    /// not a key whose curve is spelled out in explicit parameters (OpenSSL 3 refuses to verify with one; what a
    /// library does with it is not the core's to leave open), which `certkit.ec-named-curve` refuses as well.
    static func isVerifiableKeyAlgorithm(_ algorithm: PublicKeyInfo.Algorithm) -> Bool {
        if case .ec(PublicKeyInfo.explicitCurve, _) = algorithm { return false }
        return isAppleKeyAlgorithm(algorithm) || isRFC5280OnlyKeyAlgorithm(algorithm)
    }

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        for (index, certificate) in context.certificates.enumerated() {
            let key = certificate.publicKey
            if let problem = key.encodingProblem, context.enforces(TrustRules.publicKeyEncoding) {
                findings.record(TrustRules.publicKeyEncoding, at: index, note: problem)
            } else {
                if context.enforces(TrustRules.appleKeyAlgorithm), !Self.isAppleKeyAlgorithm(key.algorithm) || key.isRSASSAPSSKey {
                    findings.record(TrustRules.appleKeyAlgorithm, at: index, note: "\(key.algorithm)")
                }
                // Recorded beside the apple rule too: no profile drops it (so no advice names one).
                if context.enforces(TrustRules.verifiableKeyAlgorithm), !Self.isVerifiableKeyAlgorithm(key.algorithm) {
                    findings.record(TrustRules.verifiableKeyAlgorithm, at: index, note: "\(key.algorithm)")
                }
            }
        }
    }
}
