@testable import CertKit
import Foundation
import Testing

/// `SubjectKeyID` (rfc5280.ski-in-ca, rfc5280.ski-not-critical) at each position of the path and under each
/// profile, in the core alone: under webpki the anchor is taken as given for the CA-presence rules only
/// (`PathContext.appliesCAProfileRules(at:)`); a critical subjectKeyIdentifier is refused on every certificate,
/// the anchor included, by every profile that enforces the rule.
@Suite("SubjectKeyID rules by position and profile")
struct SubjectKeyIdentifierRuleTests {
    typealias F = GnuTLSFixtures
    static let skiOID: [UInt8] = [0x55, 0x1D, 0x0E]
    static let basicConstraintsOID: [UInt8] = [0x55, 0x1D, 0x13]

    /// leaf, intermediate, root of the RSA fixture chain.
    static func path() throws -> [[UInt8]] {
        try F.derBlocks("valid-chain-rsa/chain.pem") + F.derBlocks("valid-chain-rsa/root-rsa.pem")
    }

    /// The certificate at `index` with only basicConstraints (cA when `ca`) and, unless `ski` is nil, a
    /// subjectKeyIdentifier critical or not.
    static func replacing(at index: Int, ca: Bool, ski critical: Bool?) throws -> [Certificate] {
        var blocks = try path()
        var extensions = [DERBuilder.extension(
            basicConstraintsOID, critical: true, DERBuilder.sequence(ca ? [[0x01, 0x01, 0xFF]] : []))]
        if let critical {
            extensions.append(DERBuilder.extension(skiOID, critical: critical, DERBuilder.tlv(0x04, Array(repeating: 0x5A, count: 20))))
        }
        blocks[index] = try DERBuilder.replacingExtensions(of: blocks[index], with: extensions)
        return try blocks.map { try Certificate(derEncoded: $0) }
    }

    static func subjectKeyIDFailures(_ certificates: [Certificate], _ profile: TrustProfile) -> [Int] {
        let findings = CorePolicy.findings(for: PathContext(
            path: CandidatePath(certificates: certificates, endsAtAnchor: true),
            policy: .sslServer(host: nil, profile: profile), date: F.verifyDate))
        return findings.checks.indices.filter { findings.checks[$0].contains(.subjectKeyID) }
    }

    @Test("a non-critical subjectKeyIdentifier passes at every position, under every profile",
          arguments: [0, 1, 2], TrustProfile.allCases)
    func nonCriticalPasses(index: Int, profile: TrustProfile) throws {
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: index, ca: index > 0, ski: false), profile) == [])
    }

    @Test("a critical subjectKeyIdentifier fails where it is, the anchor included (rfc5280 and webpki)",
          arguments: [0, 1, 2])
    func criticalFailsEverywhere(index: Int) throws {
        let certificates = try Self.replacing(at: index, ca: index > 0, ski: true)
        #expect(Self.subjectKeyIDFailures(certificates, .rfc5280) == [index])
        #expect(Self.subjectKeyIDFailures(certificates, .webpki) == [index])
    }

    @Test("a CA without subjectKeyIdentifier fails, except the anchor under webpki; a leaf without one passes")
    func missingInCA() throws {
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: 1, ca: true, ski: nil), .rfc5280) == [1])
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: 1, ca: true, ski: nil), .webpki) == [1])
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: 2, ca: true, ski: nil), .rfc5280) == [2])
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: 2, ca: true, ski: nil), .webpki) == [])
        // The boundary of "asserts cA": the same certificate without cA is not a CA and needs none.
        #expect(Self.subjectKeyIDFailures(try Self.replacing(at: 0, ca: false, ski: nil), .rfc5280) == [])
    }
}
