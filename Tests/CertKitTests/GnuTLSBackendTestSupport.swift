@testable import CertKit
import CertKitGnuTLS
import CertKitTestSupport
import Foundation
import Testing

/// Loads the committed conformance fixtures (Tests/Fixtures/scenarios) for the GnuTLS backend tests.
enum GnuTLSFixtures {
    struct MissingFixture: Error, CustomStringConvertible {
        var description: String
    }

    /// 2030-06-01T00:00:00Z, the fixtures' verify date.
    static let verifyDate = Date(timeIntervalSince1970: 1_906_502_400)

    static let directory = FixtureLocator.scenarios

    /// The DER of every PEM block in `relativePath` (e.g. `valid-chain-rsa/chain.pem`).
    static func derBlocks(_ relativePath: String) throws -> [[UInt8]] {
        let text = try String(contentsOf: directory.appendingPathComponent(relativePath), encoding: .utf8)
        var blocks: [[UInt8]] = []
        var body: String?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("-----BEGIN ") {
                body = ""
            } else if line.hasPrefix("-----END ") {
                guard let encoded = body, let data = Data(base64Encoded: encoded) else {
                    throw MissingFixture(description: "bad PEM in \(relativePath)")
                }
                blocks.append([UInt8](data))
                body = nil
            } else if body != nil {
                body? += line.trimmingCharacters(in: .whitespaces)
            }
        }
        guard !blocks.isEmpty else { throw MissingFixture(description: "no PEM block in \(relativePath)") }
        return blocks
    }

    /// The certificates in `relativePath`.
    static func certificates(_ relativePath: String) throws -> [Certificate] {
        try derBlocks(relativePath).map(certificate(der:))
    }

    /// The certificate `der`, parsed by the core.
    static func certificate(der: [UInt8]) throws -> Certificate { try Certificate(derEncoded: der) }

    /// The CRL in `relativePath`.
    static func crl(_ relativePath: String) throws -> CertificateRevocationList {
        try CertificateRevocationList(derEncoded: try derBlocks(relativePath)[0])
    }

    /// The scenario's chain.pem followed by `anchor` (unless the chain already ends with it), as one path.
    static func anchoredPath(_ scenario: String, anchor anchorFile: String) throws -> (CandidatePath, [Certificate]) {
        var chain = try certificates("\(scenario)/chain.pem")
        let anchors = try certificates("\(scenario)/\(anchorFile)")
        if let anchor = anchors.first, chain.last != anchor {
            if let index = chain.firstIndex(of: anchor) { chain.removeSubrange((index + 1)...) } else { chain.append(anchor) }
        }
        return (CandidatePath(certificates: chain, endsAtAnchor: true), anchors)
    }

    /// Verifies the scenario's anchored path with a fresh store at `date`.
    static func verify(
        _ scenario: String, anchor: String, at date: Date = verifyDate, crls: [String] = []
    ) throws -> PathFindings {
        let backend = GnuTLSBackend()
        let (path, anchors) = try anchoredPath(scenario, anchor: anchor)
        let store = try backend.prepareAnchors(anchors)
        let lists = try crls.map { try crl("\(scenario)/\($0)") }
        return try backend.verify(path, anchors: store, at: date, crls: lists)
    }

    /// The checks per index that failed, leaving out empty sets, for compact expectations.
    static func failures(_ findings: PathFindings) -> [Int: Set<TrustCheck>] {
        var result: [Int: Set<TrustCheck>] = [:]
        for (index, checks) in findings.checks.enumerated() where !checks.isEmpty { result[index] = checks }
        return result
    }

    /// The library's verdict on the scenario adds nothing once the core has found `core`, and adds a failure on
    /// its own when the core found nothing (GnuTLS does not say where).
    static func expectExplained(
        _ scenario: String, anchor: String, at date: Date = verifyDate, by core: [Int: Set<TrustCheck>],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let backend = GnuTLSBackend()
        let (path, anchors) = try anchoredPath(scenario, anchor: anchor)
        let library = try backend.libraryVerdict(
            on: path, anchors: try backend.prepareAnchors(anchors), at: date, crls: [])
        #expect(!library.isEmpty, "GnuTLS must refuse \(scenario)", sourceLocation: sourceLocation)
        var withCore = PathFindings(count: path.certificates.count)
        for (index, checks) in core { for check in checks { withCore.record(check, at: index) } }
        withCore.weigh(library, from: backend.name)
        #expect(failures(withCore) == core, "\(withCore.notes)", sourceLocation: sourceLocation)
        var alone = PathFindings(count: path.certificates.count)
        alone.weigh(library, from: backend.name)
        #expect(!failures(alone).isEmpty, "GnuTLS's refusal alone must fail the path", sourceLocation: sourceLocation)
    }
}
