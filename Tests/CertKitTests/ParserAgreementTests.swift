import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

/// The core's pure-Swift parser and each backend's library read the same fields from every certificate of the
/// system bundle and of `Samples/`: names (DER), serial, validity, SAN list, basic constraints, key size/curve.
@Suite struct ParserAgreementTests {
    /// Every distinct certificate to compare, with where it came from.
    static let corpus: [(origin: String, der: [UInt8])] = {
        var seen = Set<[UInt8]>()
        var result: [(String, [UInt8])] = []
        let samples = FixtureLocator.samples
        let sampleFiles = ((try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? [])
            .filter { $0.hasSuffix(".pem") }.sorted().map { samples.appendingPathComponent($0).path }
        for path in [SystemTrustStore.bundlePath ?? "/etc/ssl/certs/ca-certificates.crt"] + sampleFiles {
            guard let data = FileManager.default.contents(atPath: path),
                  let bundle = try? CertificateBundle.decode(Array(data)) else { continue }
            for (index, certificate) in bundle.certificates.enumerated() where seen.insert(certificate.derEncoded).inserted {
                result.append(("\((path as NSString).lastPathComponent)#\(index)", certificate.derEncoded))
            }
        }
        return result
    }()

    /// Named curves by OpenSSL short name (what the core reports) → OID (what the libraries are asked for).
    static let curveOIDs: [String: String] = [
        "prime256v1": "1.2.840.10045.3.1.7", "secp384r1": "1.3.132.0.34", "secp521r1": "1.3.132.0.35",
        "secp256k1": "1.3.132.0.10", "prime192v1": "1.2.840.10045.3.1.1", "secp224r1": "1.3.132.0.33",
        "brainpoolP256r1": "1.3.36.3.3.2.8.1.1.7", "brainpoolP384r1": "1.3.36.3.3.2.8.1.1.11",
        "brainpoolP512r1": "1.3.36.3.3.2.8.1.1.13",
    ]

    /// The core's view of `certificate`, in the libraries' vocabulary.
    static func coreFields(_ certificate: Certificate) -> LibraryCertificateFields {
        let (algorithm, bits, curve): (LibraryCertificateFields.KeyAlgorithm, Int, String?) =
            switch certificate.publicKey.algorithm {
            case .rsa(let bits): (.rsa, bits, nil)
            case .ec(let curve, let bits): (.ec, bits, curveOIDs[curve] ?? curve)
            case .ed25519: (.ed25519, 0, nil)
            case .ed448: (.ed448, 0, nil)
            case .dsa(let bits): (.dsa, bits, nil)
            case .other(let oid): (.other(oid), 0, nil)
            }
        return LibraryCertificateFields(
            subjectDER: certificate.subject.derEncoded, issuerDER: certificate.issuer.derEncoded,
            serialNumber: certificate.serialNumber, notBefore: certificate.notBefore, notAfter: certificate.notAfter,
            subjectAlternativeNames: certificate.extensions.subjectAlternativeNames,
            basicConstraints: certificate.extensions.basicConstraints, keyAlgorithm: algorithm, keyBits: bits,
            curveOID: curve)
    }

    /// Makes both sides comparable where a representation is legitimately not the same:
    /// - SAN forms other than DNS/IP/email/URI keep only their tag (libraries do not return raw contents), and a
    ///   directoryName compares by DER (GnuTLS's loop API gives only a string, so for GnuTLS it is by tag);
    /// - Ed25519/Ed448 sizes are conventions (OpenSSL says 253/456 bits), so they are not compared.
    static func normalized(_ fields: LibraryCertificateFields, directoryNamesByTag: Bool) -> LibraryCertificateFields {
        var fields = fields
        fields.subjectAlternativeNames = fields.subjectAlternativeNames?.map { name in
            switch name {
            case .other(let tag, _): .other(tag: tag, contents: [])
            case .directoryName(let dn):
                directoryNamesByTag ? .other(tag: 4, contents: []) : .directoryName(DistinguishedName(derEncoded: dn.derEncoded, relativeNames: []))
            default: name
            }
        }
        switch fields.keyAlgorithm {
        case .ed25519, .ed448, .other: fields.keyBits = 0
        default: break
        }
        return fields
    }

    @Test("the corpus is large enough to mean something")
    func corpusSize() {
        print("ParserAgreementTests: \(Self.corpus.count) distinct certificates (system bundle + Samples/)")
        #expect(Self.corpus.count >= 100)
        let parsed = Self.corpus.compactMap { try? Certificate(derEncoded: $0.der) }
        #expect(parsed.count == Self.corpus.count)
        #expect(parsed.contains { if case .ec = $0.publicKey.algorithm { true } else { false } }, "no EC key")
        #expect(parsed.contains { if case .rsa = $0.publicKey.algorithm { true } else { false } }, "no RSA key")
        #expect(parsed.contains { $0.extensions.subjectAlternativeNames != nil }, "no SAN")
        #expect(parsed.contains { $0.extensions.basicConstraints?.pathLength != nil }, "no pathLenConstraint")
    }

    @Test("the Swift parser agrees with the library", arguments: BackendRegistry.standard.names)
    func parserAgrees(backendName: String) throws {
        let backend = try #require(ConcurrencyFixtures.backend(backendName) as? any LibraryFieldsReader)
        var compared = 0
        for (origin, der) in Self.corpus {
            let certificate = try Certificate(derEncoded: der)
            let library = try backend.libraryFields(of: der)
            let byTag = backendName == "gnutls"
            let core = Self.normalized(Self.coreFields(certificate), directoryNamesByTag: byTag)
            let theirs = Self.normalized(library, directoryNamesByTag: byTag)
            #expect(core.subjectDER == theirs.subjectDER, "\(origin) \(certificate.subject): subject DER")
            #expect(core.issuerDER == theirs.issuerDER, "\(origin) \(certificate.subject): issuer DER")
            #expect(core.serialNumber == theirs.serialNumber, "\(origin) \(certificate.subject): serial")
            #expect(core.notBefore == theirs.notBefore, "\(origin) \(certificate.subject): notBefore")
            #expect(core.notAfter == theirs.notAfter, "\(origin) \(certificate.subject): notAfter")
            #expect(core.subjectAlternativeNames == theirs.subjectAlternativeNames, "\(origin) \(certificate.subject): SAN")
            #expect(core.basicConstraints == theirs.basicConstraints, "\(origin) \(certificate.subject): basicConstraints")
            #expect(core.keyAlgorithm == theirs.keyAlgorithm, "\(origin) \(certificate.subject): key algorithm")
            #expect(core.keyBits == theirs.keyBits, "\(origin) \(certificate.subject): key bits")
            #expect(core.curveOID == theirs.curveOID, "\(origin) \(certificate.subject): curve")
            compared += 1
        }
        print("ParserAgreementTests: core parser vs \(backendName): \(compared) certificates compared")
        #expect(compared >= 100)
    }

    @Test("the sample server certificate's SAN and constraints come through every reader")
    func sampleServerFields() throws {
        let path = FixtureLocator.sample("server.pem")
        let data = try #require(FileManager.default.contents(atPath: path))
        let certificate = try #require(try CertificateBundle.decode(Array(data)).certificates.first)
        let names = try #require(certificate.extensions.subjectAlternativeNames)
        #expect(!names.isEmpty)
        for backend in BackendRegistry.standard.allBackends() {
            let backend = try #require(backend as? any LibraryFieldsReader)
            let fields = try backend.libraryFields(of: certificate.derEncoded)
            #expect(fields.subjectAlternativeNames == names, "\(backend.name)")
            #expect(fields.basicConstraints?.isCA != true, "\(backend.name)")
        }
    }
}
