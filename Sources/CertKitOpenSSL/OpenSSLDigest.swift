import CertKit
internal import COpenSSL

/// One-shot digests with `EVP_Digest` and the implementations fetched once (``OpenSSLFetchedDigest``).
enum OpenSSLDigest {
    /// The digest of `bytes`.
    static func compute(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        let fetched: OpenSSLFetchedDigest? = switch algorithm {
        case .sha1: OpenSSLFetchedDigest.sha1
        case .sha256: OpenSSLFetchedDigest.sha256
        }
        guard let fetched else { throw OpenSSLErrorQueue.error("EVP_MD_fetch(\(algorithm.rawValue)) failed") }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, fetched.handle, nil)
        }
        guard ok == 1 else { throw OpenSSLErrorQueue.error("EVP_Digest(\(algorithm.rawValue)) failed") }
        return Array(output.prefix(Int(length)))
    }
}
