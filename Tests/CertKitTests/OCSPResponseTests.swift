@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// The core's OCSP parsing and its bounds, and the library API (`ocspResponses`, `TrustReport.revocation`) on every
/// backend. Fixtures: Tests/Fixtures/ocsp (the ocsp fixture set).
@Suite("OCSP responses: parsing, bounds, evaluation")
struct OCSPResponseTests {
    static let directory = FixtureLocator.fixtures.appendingPathComponent("ocsp")
    /// An OCSPResponse's status and responseType (DER, as encoded) and the BasicOCSPResponse inside, for tests that
    /// rebuild a response around changed parts.
    static func envelope(of response: [UInt8]) throws -> (status: [UInt8], type: [UInt8], octets: [UInt8]) {
        try DERReader.read(response) { top throws(CertificateDecodingError) in
            var response = try top.read(DERTag.sequence, "OCSPResponse").children()
            let status = try response.read(DERTag.enumerated, "status").encoded
            var explicit = try response.read(DERTag.contextConstructed(0), "[0]").children()
            var responseBytes = try explicit.read(DERTag.sequence, "responseBytes").children()
            let type = try responseBytes.read(DERTag.objectIdentifier, "type").encoded
            return (status, type, try responseBytes.read(DERTag.octetString, "octets").contentBytes)
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }
    static func certificate(_ name: String) throws -> Certificate {
        try CertificateBundle.decode(bytes(name)).certificates[0]
    }
    static func verifyDate() throws -> Date {
        let text = String(decoding: try bytes("verify-date.txt"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(ISO8601DateFormatter().date(from: text))
    }

    @Test("a good response: successful, one SHA-1 certID naming the leaf's serial, nextUpdate after thisUpdate")
    func parsesGood() throws {
        let response = try OCSPResponse(derEncoded: Self.bytes("good.der"))
        #expect(response.status == .successful)
        let basic = try #require(response.basic)
        #expect(basic.responses.count == 1)
        let single = try #require(basic.responses.first)
        #expect(single.certID.hashAlgorithm == .sha1)
        #expect(single.certID.serialNumber == (try Self.certificate("leaf-good.pem")).serialNumber)
        #expect(single.status == .good)
        #expect(try #require(single.nextUpdate) > single.thisUpdate)
        #expect(try OCSPResponse(derEncoded: Self.bytes("good-sha256.der")).basic?.responses.first?.certID.hashAlgorithm == .sha256)
        // openssl ocsp sends the signer's certificate: the CA, or the delegated responder.
        #expect(basic.certificates == [try Self.certificate("ca.pem")])
        #expect(try OCSPResponse(derEncoded: Self.bytes("delegated.der")).basic?.certificates == [try Self.certificate("responder.pem")])
    }

    @Test("malformed input is refused: truncated, trailing bytes, successful without responseBytes, garbage")
    func malformed() throws {
        let good = try Self.bytes("good.der")
        for bad in [Array(good.dropLast()), good + [0], [0x30, 0x03, 0x0A, 0x01, 0x00], Array("not DER".utf8), []] {
            #expect(throws: CertificateDecodingError.self) { try OCSPResponse(derEncoded: bad) }
        }
        // A status other than successful carries no answer, and parses.
        let tryLater = try OCSPResponse(derEncoded: [0x30, 0x03, 0x0A, 0x01, 0x03])
        #expect(tryLater.status == .tryLater)
        #expect(tryLater.basic == nil)
    }

    @Test("bounds: answers in one response, responses given to one evaluation (ResourceLimit)")
    func bounds() throws {
        var tight = Limits.default
        tight.maxOCSPResponses = 0
        #expect { try OCSPResponse(derEncoded: Self.bytes("good.der"), limits: tight) } throws: { error in
            (error as? CertificateDecodingError)?.code == .limitExceeded
        }
        let response = try OCSPResponse(derEncoded: Self.bytes("good.der"))
        let evaluation = TrustEvaluation(
            certificates: [try Self.certificate("leaf-good.pem")], anchors: [try Self.certificate("ca.pem")],
            verifyDate: try Self.verifyDate(), ocspResponses: Array(repeating: response, count: 101))
        let report = TrustEvaluator(backend: BackendRegistry.standard.entries[0].backend()).evaluate(evaluation)
        #expect(report.result == .fatalTrustFailure)
        #expect(report.error?.check == .resourceLimit)
    }

    @Test("the library API: a stapled good answer is reported per certificate, the same on every backend")
    func libraryAPI() throws {
        var evaluation = TrustEvaluation(
            certificates: [try Self.certificate("leaf-good.pem")], anchors: [try Self.certificate("ca.pem")],
            verifyDate: try Self.verifyDate())
        evaluation.ocspResponses = [try OCSPResponse(derEncoded: Self.bytes("good.der"))]
        evaluation.requireRevocation = true
        for entry in BackendRegistry.standard.entries {
            let report = TrustEvaluator(backend: entry.backend()).evaluate(evaluation)
            #expect(report.result == .unspecified, "\(entry.name)")
            #expect(report.revocation.map(\.outcome) == [.good, .notApplicable], "\(entry.name)")
            #expect(report.revocation.first?.source == .stapledOCSP)
        }
        evaluation.revocationMode = .crl  // the response is not used: nothing answers for the leaf
        let report = TrustEvaluator(backend: BackendRegistry.standard.entries[0].backend()).evaluate(evaluation)
        #expect(report.error?.check == .revocationResponseRequired)
    }

    /// `delegated.der` with `certificates` in place of the responder certificate it carries (outside the signed
    /// part: the signature still verifies).
    static func delegated(carrying certificates: [Certificate]) throws -> [UInt8] {
        let (status, type, octets) = try envelope(of: try bytes("delegated.der"))
        let signed = try DERReader.read(octets) { octets throws(CertificateDecodingError) in
            var basic = try octets.read(DERTag.sequence, "BasicOCSPResponse").children()
            return [try basic.read(DERTag.sequence, "tbs").encoded, try basic.read(DERTag.sequence, "algorithm").encoded,
                    try basic.read(DERTag.bitString, "signature").encoded]
        }
        let certs = DERWriter.tlv(DERTag.contextConstructed(0), DERWriter.sequence(certificates.map(\.derEncoded)))
        let inner = DERWriter.sequence(signed + [certs])
        return DERWriter.sequence([
            status,
            DERWriter.tlv(DERTag.contextConstructed(0), DERWriter.sequence([type, DERWriter.tlv(DERTag.octetString, inner)])),
        ])
    }

    @Test("the delegated responder is the first certificate the responderID names: a look-alike before it (no EKU) makes the response invalid, on every backend")
    func firstNamedResponder() throws {
        let lookAlike = try Self.certificate("responder-no-eku.pem")
        let responder = try Self.certificate("responder.pem")
        #expect(lookAlike.subject.matches(responder.subject))
        var evaluation = TrustEvaluation(
            certificates: [try Self.certificate("leaf-good.pem")], anchors: [try Self.certificate("ca.pem")],
            verifyDate: try Self.verifyDate())
        for (certificates, valid) in [([responder, lookAlike], true), ([lookAlike, responder], false)] {
            evaluation.ocspResponses = [try OCSPResponse(derEncoded: Self.delegated(carrying: certificates))]
            for entry in BackendRegistry.standard.entries {
                let report = TrustEvaluator(backend: entry.backend()).evaluate(evaluation)
                #expect(report.revocation.first?.outcome == (valid ? .good : .notChecked), "\(entry.name)")
                #expect(report.error?.check == (valid ? nil : .revocationResponseRequired), "\(entry.name)")
            }
        }
    }

    @Test("bounds: the certificates one response carries (Limits.maxOCSPResponses)")
    func certificateBound() throws {
        let responder = try Self.certificate("responder.pem")
        var tight = Limits.default
        tight.maxOCSPResponses = 1
        #expect(try OCSPResponse(derEncoded: Self.delegated(carrying: [responder]), limits: tight).basic?.certificates.count == 1)
        #expect { try OCSPResponse(derEncoded: Self.delegated(carrying: [responder, responder]), limits: tight) } throws: { error in
            (error as? CertificateDecodingError)?.code == .limitExceeded
        }
    }
}
