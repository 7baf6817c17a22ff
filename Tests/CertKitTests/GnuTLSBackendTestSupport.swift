import Foundation
@testable import CertKit
import CertKitGnuTLS

/// Loads the committed conformance fixtures (Tests/Fixtures/scenarios) for the GnuTLS backend tests.
enum GnuTLSFixtures {
    struct MissingFixture: Error, CustomStringConvertible {
        var description: String
    }

    /// 2030-06-01T00:00:00Z, the fixtures' verify date.
    static let verifyDate = Date(timeIntervalSince1970: 1_906_502_400)

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/scenarios")

    /// True once the core's DER parser is in (Certificate(derEncoded:) works on a fixture).
    static let coreParserAvailable: Bool = {
        guard let der = try? derBlocks("valid-chain-rsa/root-rsa.pem").first else { return false }
        return (try? Certificate(derEncoded: der)) != nil
    }()

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

    /// A `Certificate` for `der`: the core's parser, or — while the encoding work has not landed — a value that
    /// carries only the DER, which is all the backend reads.
    static func certificate(der: [UInt8]) throws -> Certificate {
        if let parsed = try? Certificate(derEncoded: der) { return parsed }
        let empty = DistinguishedName(derEncoded: [], relativeNames: [])
        return Certificate(
            derEncoded: der, tbsCertificateBytes: [], version: 3, serialNumber: [],
            signatureAlgorithm: SignatureAlgorithm(oid: "1.2.840.113549.1.1.11"), signatureBytes: [],
            issuer: empty, subject: empty, notBefore: .distantPast, notAfter: .distantFuture,
            publicKey: PublicKeyInfo(algorithm: .other(oid: ""), derEncoded: []), extensions: CertificateExtensions()
        )
    }

    /// The CRL in `relativePath` (parser or DER-only value, as for certificates).
    static func crl(_ relativePath: String) throws -> CertificateRevocationList {
        let der = try derBlocks(relativePath)[0]
        if let parsed = try? CertificateRevocationList(derEncoded: der) { return parsed }
        return CertificateRevocationList(
            derEncoded: der, issuer: DistinguishedName(derEncoded: [], relativeNames: []), thisUpdate: .distantPast,
            nextUpdate: nil, revokedSerialNumbers: [], authorityKeyIdentifier: nil
        )
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
}
