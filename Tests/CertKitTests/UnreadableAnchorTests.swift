@testable import CertKit
import CertKitBackends
import Foundation
import Testing

/// An anchor one library cannot import (OpenSSL's `d2i_X509` refuses a subject that is not valid UTF-8; GnuTLS reads
/// it): in the default mode the core verifies the anchor's signatures from its key and decides alone, so both
/// backends give the same verdict; only the audit mode, which runs the library's own verifier on the anchor, meets
/// the library's refusal, as a LibraryVerdict failure naming the library's reason (differential seed 20261205,
/// cases 38015 and 48622: OpenSSL once said BackendError there, hiding the core's verdict).
@Suite("an anchor one library cannot import: the core's verdict on both backends by default")
struct UnreadableAnchorTests {
    typealias F = GnuTLSFixtures

    /// The RSA fixture leaf with its subject's CN an UTF8String that is not UTF-8 (its SAN still names leaf.example).
    static func unreadableLeaf() throws -> Certificate {
        let leaf = try F.derBlocks("valid-chain-rsa/chain.pem")[0]
        let cn: [UInt8] = [0x06, 0x03, 0x55, 0x04, 0x03]
        let subject = DERBuilder.sequence([DERBuilder.set([DERBuilder.sequence([cn, DERBuilder.tlv(0x0C, [0xFF, 0xFE, 0x20, 0x62, 0x61, 0x64])])])])
        return try Certificate(derEncoded: DERBuilder.replacingTBSField(of: leaf, at: 5, with: subject))
    }

    @Test("the leaf is itself the anchor: trusted on both backends in the default mode")
    func defaultModeSameVerdict() throws {
        let leaf = try Self.unreadableLeaf()
        let evaluation = TrustEvaluation(
            certificates: [leaf], policies: [.sslServer(host: "leaf.example")], anchors: [leaf], verifyDate: F.verifyDate)
        for backend in BackendRegistry.standard.allBackends() {
            let report = TrustEvaluator(backend: backend).evaluate(evaluation)
            #expect(report.result == .unspecified, "\(backend.name): \(report.result) \(report.checks) \(report.error?.message ?? "")")
        }
    }

    @Test("the audit mode on OpenSSL meets the import failure: a LibraryVerdict with OpenSSL's reason, not a BackendError")
    func auditModeFailsClosed() throws {
        let leaf = try Self.unreadableLeaf()
        let evaluation = TrustEvaluation(
            certificates: [leaf], policies: [.sslServer(host: "leaf.example")], anchors: [leaf], verifyDate: F.verifyDate)
        let openssl = try #require(BackendRegistry.standard.backend(named: "openssl"))
        let report = TrustEvaluator(backend: openssl, configuration: .audit).evaluate(evaluation)
        #expect(!report.isTrusted, "\(report.result)")
        #expect(report.checks == [[.libraryVerdict]], "\(report.result) \(report.checks)")
        #expect(!report.allFailures.contains(.backendError))
        #expect(report.error?.check == .libraryVerdict)
        #expect(report.libraryVerdict.contains { $0.contains("refuses to import the certificate") }, "\(report.libraryVerdict)")
    }
}
