@testable import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import Foundation
import Testing

/// The table of known library deviations (`LibraryVerdictInterpretation.KnownDeviation`): GnuTLS really refuses
/// these RFC 5280-valid chains, each refusal is explained by exactly its deviation, and the deviation recognises
/// only its own shape.
@Suite("Known library deviations")
struct LibraryDeviationTests {
    typealias Deviation = LibraryVerdictInterpretation.KnownDeviation
    typealias F = GnuTLSFixtures

    static let cases: [(scenario: String, deviation: Deviation)] = [
        ("profiles-nc-gnutls-cn-excluded-ip-san-rfc5280", .commonNameUnderDNSConstraints),
        ("profiles-nc-gnutls-excluded-x400-rfc5280", .excludedUnsupportedNameForm),
        ("profiles-nc-gnutls-excluded-edi-party-rfc5280", .excludedUnsupportedNameForm),
        ("rules-pathlen-0-self-issued-below", .countsSelfIssuedAgainstPathLength),
        ("rules-nc-dirname-excluded", .excludedDirectoryName),
    ]

    static func gnutlsFacts(_ scenario: String) throws -> (CandidatePath, [LibraryFact]) {
        let anchorFile = try FileManager.default.contentsOfDirectory(atPath: F.directory.appendingPathComponent(scenario).path)
            .first { $0 != "chain.pem" && $0.hasSuffix(".pem") }!
        let (path, anchors) = try F.anchoredPath(scenario, anchor: anchorFile)
        let backend = GnuTLSBackend()
        let facts = try backend.libraryVerdict(
            on: path, anchors: try backend.prepareAnchors(anchors), at: F.verifyDate, crls: [])
        return (path, facts)
    }

    @Test("GnuTLS's refusal of an RFC 5280-valid chain is explained by its deviation only", arguments: cases.indices)
    func gnutlsRefusalIsExplainedByItsDeviationOnly(index: Int) throws {
        let (scenario, deviation) = Self.cases[index]
        let (path, facts) = try Self.gnutlsFacts(scenario)
        #expect(!facts.isEmpty, "GnuTLS must refuse \(scenario) (else the deviation is no longer needed)")
        for fact in facts {
            let explaining = Deviation.allCases.filter { $0.explains(fact, on: path.certificates, at: F.verifyDate) }
            #expect(explaining == [deviation], "\(scenario): \(fact)")
        }
        // The core finds nothing, so without the table each fact would be a LibraryVerdict.
        var weighed = PathFindings(count: path.certificates.count)
        weighed.weigh(facts, on: path.certificates, at: F.verifyDate, from: "gnutls")
        #expect(weighed.checks.allSatisfy { $0.isEmpty }, "\(weighed.notes)")
        var without = PathFindings(count: path.certificates.count)
        without.weigh(facts, on: [], at: F.verifyDate, from: "gnutls")
        #expect(without.checks[0] == [.libraryVerdict])
    }

    @Test("each deviation recognises only its own shape and status")
    func shapesAreExact() throws {
        let (path, _) = try Self.gnutlsFacts("profiles-nc-gnutls-cn-excluded-ip-san-rfc5280")
        let constraints = LibraryFact(.signerConstraints, words: "w")
        // The same intermediate above a leaf whose SAN holds a dNSName: the CN quirk is not this shape.
        let dnsLeaf = try F.certificates("valid-chain-rsa/chain.pem")[0]
        #expect(!Deviation.commonNameUnderDNSConstraints.explains(
            constraints, on: [dnsLeaf] + path.certificates.dropFirst(), at: F.verifyDate))
        // Another status on the right shape is not explained.
        #expect(!Deviation.commonNameUnderDNSConstraints.explains(
            LibraryFact(.nameConstraintViolation, words: "w"), on: path.certificates, at: F.verifyDate))
        // A path without any excluded form: nothing explains a signer-constraints failure.
        let plain = try F.certificates("valid-chain-rsa/chain.pem") + F.certificates("valid-chain-rsa/root-rsa.pem")
        #expect(Deviation.allCases.allSatisfy { !$0.explains(constraints, on: plain, at: F.verifyDate) })
        #expect(Deviation.allCases.allSatisfy {
            !$0.explains(LibraryFact(.noIssuer, words: "w"), on: plain, at: F.verifyDate)
        })
    }

    /// The CN quirk's shape: the leaf has no dNSName subjectAltName (IP addresses or emails only), and its CN, read
    /// as a dNSName, falls outside a permitted or inside an excluded DNS subtree of a CA above it. One dNSName in
    /// the SAN, or a CN the constraints allow, is not that deviation.
    @Test("the CN deviation needs a SAN without dNSName and a CN the DNS constraints refuse")
    func commonNameDeviationShape() throws {
        let (fixture, _) = try Self.gnutlsFacts("profiles-nc-gnutls-cn-excluded-ip-san-rfc5280")  // CN=leaf.example
        let leaf = fixture.certificates[0].derEncoded, intermediate = fixture.certificates[1].derEncoded
        let ip = DERBuilder.tlv(0x87, [192, 0, 2, 10]), dns = DERBuilder.tlv(0x82, Array("leaf.example".utf8))
        let email = DERBuilder.tlv(0x81, Array("ops@leaf.example".utf8))
        func constraints(_ tag: UInt8, _ base: String) throws -> Certificate {
            let subtree = DERBuilder.tlv(0x30, DERBuilder.tlv(0x82, Array(base.utf8)))
            let value = DERBuilder.tlv(0x30, DERBuilder.tlv(tag, subtree))
            return try Certificate(derEncoded: DERBuilder.replacingExtensions(
                of: intermediate, with: [DERBuilder.extension([0x55, 0x1D, 0x1E], critical: true, value)]))
        }
        func path(san names: [[UInt8]], ca: Certificate? = nil) throws -> [Certificate] {
            let san = DERBuilder.extension([0x55, 0x1D, 0x11], DERBuilder.sequence(names))
            return [try Certificate(derEncoded: DERBuilder.replacingExtensions(of: leaf, with: [san])),
                    ca ?? fixture.certificates[1]] + fixture.certificates.dropFirst(2)
        }
        let deviation = Deviation.commonNameUnderDNSConstraints, date = F.verifyDate
        let refusal = LibraryFact(.signerConstraints, words: "w")
        #expect(deviation.explains(refusal, on: try path(san: [ip]), at: date))
        #expect(deviation.explains(refusal, on: try path(san: [ip, ip]), at: date))
        #expect(deviation.explains(refusal, on: try path(san: [email]), at: date))
        #expect(!deviation.explains(refusal, on: try path(san: [ip, dns]), at: date))
        #expect(!deviation.explains(refusal, on: try path(san: [dns, ip]), at: date))
        // Permitted subtrees: outside is the quirk, inside is not; an excluded subtree the CN is not in is not.
        #expect(deviation.explains(refusal, on: try path(san: [ip], ca: constraints(0xA0, "other.example")), at: date))
        #expect(!deviation.explains(refusal, on: try path(san: [ip], ca: constraints(0xA0, "example")), at: date))
        #expect(!deviation.explains(refusal, on: try path(san: [ip], ca: constraints(0xA1, "other.example")), at: date))
    }

    /// OpenSSL compares a trailing-dot dNSName byte for byte with DNS subtrees; the deviation holds only when the
    /// name without its dot is allowed.
    @Test("the trailing-dot deviation holds only for names allowed without their dot")
    func trailingDotDeviationShape() throws {
        let (path, _) = try Self.gnutlsFacts("profiles-nc-gnutls-cn-excluded-ip-san-rfc5280")  // excludes leaf.example
        let leaf = path.certificates[0].derEncoded
        func withDNS(_ names: [String]) throws -> [Certificate] {
            let san = DERBuilder.extension(
                [0x55, 0x1D, 0x11], DERBuilder.sequence(names.map { DERBuilder.tlv(0x82, Array($0.utf8)) }))
            return [try Certificate(derEncoded: DERBuilder.replacingExtensions(of: leaf, with: [san]))]
                + path.certificates.dropFirst()
        }
        let deviation = Deviation.trailingDotDNSNameUnderConstraints, date = F.verifyDate
        let violation = LibraryFact(.nameConstraintViolation, words: "w")
        #expect(deviation.explains(violation, on: try withDNS(["www.other.example."]), at: date))
        #expect(!deviation.explains(violation, on: try withDNS(["leaf.example."]), at: date), "excluded without its dot")
        #expect(!deviation.explains(violation, on: try withDNS(["www.other.example"]), at: date), "no trailing dot")
        #expect(!deviation.explains(LibraryFact(.signerConstraints, words: "w"), on: try withDNS(["www.other.example."]), at: date))
    }

    /// OpenSSL counts a certificate as expired at its notAfter second; RFC 5280 (and the core) do not.
    @Test("OpenSSL's expiry at the notAfter second is a deviation: trusted in the audit mode on both backends")
    func openSSLExpiryAtNotAfterIsADeviation() throws {
        let chain = try F.certificates("valid-chain-rsa/chain.pem") + F.certificates("valid-chain-rsa/root-rsa.pem")
        let expired = LibraryFact(.expired, index: 0, words: "certificate has expired")
        #expect(Deviation.expiredAtNotAfter.explains(expired, on: chain, at: chain[0].notAfter))
        #expect(!Deviation.expiredAtNotAfter.explains(expired, on: chain, at: chain[0].notAfter.addingTimeInterval(1)))
        let evaluation = TrustEvaluation(
            certificates: chain.dropLast(), policies: [.basicX509], anchors: [chain.last!], verifyDate: chain[0].notAfter)
        for backend in [OpenSSLBackend() as any TrustBackend, GnuTLSBackend()] {
            let report = TrustEvaluator(backend: backend, configuration: .audit).evaluate(evaluation)
            #expect(report.isTrusted, "\(backend.name): \(report.libraryVerdict)")
        }
    }

    /// OpenSSL requires the anchor to assert cA when it cannot take it for self-signed; an anchor is trusted as given.
    @Test("OpenSSL's 'not a CA' on an anchor without basicConstraints is a deviation, on the anchor only")
    func openSSLAnchorWithoutBasicConstraints() throws {
        let v1 = try F.certificates("rules-v1-root-anchor/chain.pem") + F.certificates("rules-v1-root-anchor/v1-root.pem")
        let anchor = LibraryFact(.notACA, index: v1.count - 1, words: "invalid CA certificate")
        #expect(Deviation.anchorWithoutBasicConstraints.explains(anchor, on: v1, at: F.verifyDate))
        // Not below the anchor, not for another status, not for an anchor that carries basicConstraints.
        #expect(!Deviation.anchorWithoutBasicConstraints.explains(
            LibraryFact(.notACA, index: 1, words: "w"), on: v1, at: F.verifyDate))
        #expect(!Deviation.anchorWithoutBasicConstraints.explains(
            LibraryFact(.noIssuer, index: v1.count - 1, words: "w"), on: v1, at: F.verifyDate))
        let rsa = try F.certificates("valid-chain-rsa/chain.pem") + F.certificates("valid-chain-rsa/root-rsa.pem")
        #expect(!Deviation.anchorWithoutBasicConstraints.explains(
            LibraryFact(.notACA, index: rsa.count - 1, words: "w"), on: rsa, at: F.verifyDate))
    }
}
