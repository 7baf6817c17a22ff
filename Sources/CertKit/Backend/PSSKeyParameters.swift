/// An id-RSASSA-PSS key's own parameters (RFC 4055 §3.1) against the signature's: the key may restrict the hash, the
/// mask generation and the salt, and the libraries read that restriction differently — OpenSSL takes the key's salt
/// length as a minimum, GnuTLS as the exact value — so the same signature was trusted on one backend and refused on
/// the other. The core asks for one reading before any library sees the signature: a key with parameters signs only
/// with exactly those parameters, and they must be ones certkit accepts for a signature (the digest's own length
/// as the salt, MGF1 over the same digest); a key without parameters signs with any accepted PSS parameters.
enum PSSKeyParameters {
    /// Why a signature made with `scheme` cannot be by `key` (an id-RSASSA-PSS key), or nil.
    static func mismatch(key: PublicKeyInfo, scheme: SignatureScheme) -> String? {
        guard key.isRSASSAPSSKey else { return nil }
        let parameters: Result<(HashAlgorithm, Int), AlgorithmIdentifierParser.PSSRefusal>?
        do {
            parameters = try DERReader.read(key.derEncoded) { (top) throws(CertificateDecodingError) in
                var fields = try top.read(DERTag.sequence, "subjectPublicKeyInfo").children()
                let (_, keyParameters) = try AlgorithmIdentifierParser.parse(fields.read(DERTag.sequence, "SPKI algorithm"))
                return keyParameters.map { AlgorithmIdentifierParser.pssParameters($0) }
            }
        } catch {
            return "the RSASSA-PSS key's parameters do not decode: \(error.message)"
        }
        guard let parameters else { return nil }  // no restriction
        switch parameters {
        case .failure(let refusal):
            return "the RSASSA-PSS key's parameters are not ones certkit accepts (\(refusal.message)): it signs nothing"
        case .success(let (hash, salt)):
            guard case .rsaPSS(hash, saltLength: salt) = scheme else {
                return "the signature's RSASSA-PSS parameters (\(scheme)) are not the key's (\(hash.rawValue), salt \(salt))"
            }
            return nil
        }
    }
}
