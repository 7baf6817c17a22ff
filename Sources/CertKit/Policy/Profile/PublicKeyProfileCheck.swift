/// `KeySize` for the Web PKI's key rules, on every certificate of the path (anchor included), under every policy:
/// - `TrustRules/keyAlgorithm`: RSA or ECDSA only (no DSA; no Ed25519 or Ed448, as pyca/cryptography's Web PKI
///   policy rejects them);
/// - `TrustRules/rsaModulusMinimum`: an RSA modulus of at least 2048 bits;
/// - `TrustRules/rsaModulusMultipleOf8`: an RSA modulus size divisible by 8;
/// - `TrustRules/ecdsaNamedCurve`: P-256, P-384 or P-521 (explicit parameters are rejected in every profile,
///   `TrustRules/ecNamedCurve`).
/// KeySize is what trustd records for a key type or size its policy does not allow.
package struct PublicKeyProfileCheck: PathCheck {
    /// The curves the Baseline Requirements allow (certkit's names for them).
    static let allowedCurves: Set<String> = ["prime256v1", "secp384r1", "secp521r1"]

    package init() {}

    /// The rule `algorithm` breaks, if any.
    package static func brokenRule(_ algorithm: PublicKeyInfo.Algorithm) -> TrustRule? {
        switch algorithm {
        case .rsa(let bits):
            if bits < 2048 { return TrustRules.rsaModulusMinimum }
            return bits % 8 == 0 ? nil : TrustRules.rsaModulusMultipleOf8
        case .ec(let curve, _):
            // Explicit parameters are certkit.ec-named-curve, in every profile.
            return allowedCurves.contains(curve) || curve == PublicKeyInfo.explicitCurve ? nil : TrustRules.ecdsaNamedCurve
        case .dsa, .ed25519, .ed448, .other:
            return TrustRules.keyAlgorithm
        }
    }

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.keyAlgorithm) else { return }
        for (index, certificate) in context.certificates.enumerated() {
            if let rule = Self.brokenRule(certificate.publicKey.algorithm), context.enforces(rule) {
                findings.record(rule, at: index, note: "\(certificate.publicKey.algorithm)")
            } else if certificate.publicKey.isRSASSAPSSKey {
                findings.record(TrustRules.keyAlgorithm, at: index, note: "RSA key under id-RSASSA-PSS (BR §7.1.3.1.1: rsaEncryption only)")
            }
        }
    }
}
