/// Key-size and hash floors with Apple's split (Docs/TrustModel.md):
/// - fatal everywhere: MD2/MD4/MD5 signatures (`WeakSignature`), RSA < 1024 or EC < 160 bits (`WeakKeySize`);
/// - recoverable under the SSL policies: SHA-1 signatures (`SignatureHashAlgorithms`), RSA < 2048 or
///   EC < 256 bits (`KeySize`).
/// The anchor's own signature is not relied on, so its hash is not judged; its key is. An EC key must name its
/// curve (`TrustRules/ecNamedCurve`: explicit parameters are `KeySize` under every policy).
package struct AlgorithmStrengthCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        let ssl = context.policy.isSSL
        for (index, certificate) in context.certificates.enumerated() {
            if index != context.anchorIndex, let hash = certificate.signatureAlgorithm.hash {
                if hash.isBroken {
                    findings.record(TrustRules.weakSignature, at: index)
                } else if ssl && hash == .sha1 {
                    findings.record(TrustRules.tlsHashFloor, at: index)
                }
            }
            switch certificate.publicKey.algorithm {
            case .rsa(let bits), .dsa(let bits):
                if bits == 0 { break }
                if bits < 1024 { findings.record(TrustRules.weakKey, at: index) }
                else if ssl && bits < 2048 { findings.record(TrustRules.tlsKeySize, at: index) }
            case .ec(let curve, let bits):
                if curve == PublicKeyInfo.explicitCurve { findings.record(TrustRules.ecNamedCurve, at: index) }
                if bits < 160 { findings.record(TrustRules.weakKey, at: index) }
                else if ssl && bits < 256 { findings.record(TrustRules.tlsKeySize, at: index) }
            default:
                break
            }
        }
    }
}
