import CertKit
import CertKitOpenSSL
import Testing

/// On the OpenSSL backend a signature verifies only under the exact scheme it was made with, however often the same
/// signer key was used before under another scheme: the backend keeps one initialised verification context per key
/// and scheme and copies it for each verification, so a context set up for one PSS salt length, digest or padding
/// must never answer for another. (OpenSSL only: GnuTLS verifies RSASSA-PSS with the salt it derives from the
/// digest, whatever salt length it is given.)
@Suite struct SignatureSchemeParameterTests {
    /// The leaf → Int RSA link of `attacks-rsa-pss-sha256`: RSASSA-PSS, SHA-256, MGF1-SHA-256, salt 32.
    static func pssLink() throws -> SignatureInput {
        let link = try #require(
            SignerKeyTests.links("attacks-rsa-pss-sha256/chain.pem", "attacks-rsa-pss-sha256/root-rsa.pem").first)
        #expect(link.scheme == .rsaPSS(.sha256, saltLength: 32))
        return link
    }

    /// The schemes the PSS link's signature was not made with.
    static let wrongSchemes: [SignatureScheme] = [
        .rsaPSS(.sha256, saltLength: 20), .rsaPSS(.sha256, saltLength: 0), .rsaPSS(.sha384, saltLength: 32),
        .rsaPSS(.sha512, saltLength: 32), .rsaPKCS1(.sha256), .ecdsa(.sha256),
    ]

    @Test("a PSS signature verifies under its own parameters only, before and after other schemes with the same key")
    func pssParameters() throws {
        let genuine = try Self.pssLink()
        for capacity in [0, 256] {
            let backend = OpenSSLBackend(certificateCacheCapacity: capacity)
            #expect(try backend.verifySignature(genuine) == .valid, "cache \(capacity)")
            for scheme in Self.wrongSchemes {
                var wrong = genuine
                wrong.scheme = scheme
                for attempt in 1...2 {
                    #expect(
                        try backend.verifySignature(wrong) != .valid,
                        "cache \(capacity) accepted \(scheme) (attempt \(attempt))")
                }
                #expect(try backend.verifySignature(genuine) == .valid, "cache \(capacity) after \(scheme)")
            }
        }
    }

    @Test("a refused scheme stays refused when it is the first one a key is used with")
    func wrongSchemeFirst() throws {
        let genuine = try Self.pssLink()
        let backend = OpenSSLBackend(certificateCacheCapacity: 256)
        var wrong = genuine
        wrong.scheme = .rsaPSS(.sha256, saltLength: 20)
        #expect(try backend.verifySignature(wrong) != .valid)
        #expect(try backend.verifySignature(genuine) == .valid)
        #expect(try backend.verifySignature(wrong) != .valid, "after the genuine one")
    }
}
