import CertKit
internal import COpenSSL

/// One-shot digests with `EVP_Digest`.
enum OpenSSLDigest {
    /// The digest of `bytes`.
    static func compute(_ algorithm: DigestAlgorithm, of bytes: [UInt8]) throws(BackendError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        let md: OpaquePointer? = switch algorithm {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
        guard let md else { throw OpenSSLErrorQueue.error("EVP_\(algorithm.rawValue) unavailable") }
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, md, nil)
        }
        guard ok == 1 else { throw OpenSSLErrorQueue.error("EVP_Digest(\(algorithm.rawValue)) failed") }
        return Array(output.prefix(Int(length)))
    }
}
