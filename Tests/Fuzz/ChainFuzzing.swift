import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation

/// Evaluation of fuzzed chains: the way a TLS peer's bytes reach the core's path building, policy and
/// revocation code and a backend's verification.
///
/// Input: one flags byte, then a bundle (DER certificates back to back, or PEM; PEM `X509 CRL` blocks become
/// the evaluation's CRLs). The first certificate is the leaf, the rest the pool. Flags: bits 0–1 the policy
/// (basic, SSL server for `leaf.example`, SSL client, email `x@leaf.example`); bit 2: the last certificate is
/// the anchor (else the fixtures' roots are); bit 3: apply exceptions for the leaf's recoverable failures and
/// evaluate again; bits 4–5 the date (2030-06-01, 2020-01-01, 2045-01-01, now).
enum ChainFuzzing {
    /// An uncached evaluator per backend of the registry, by name.
    static let evaluators: [String: TrustEvaluator] = Dictionary(
        uniqueKeysWithValues: BackendRegistry.standard.entries.map {
            ($0.name, TrustEvaluator(backend: $0.backend(), configuration: .uncached))
        })

    /// The fixtures' root certificates, read once (the fuzzer runs on the machine that built it).
    static let fixtureAnchors: [Certificate] = {
        let scenarios = FixtureLocator.scenarios
        return ["valid-chain-rsa/root-rsa.pem", "valid-chain-ec/root-ec.pem"].flatMap { relative -> [Certificate] in
            guard let data = FileManager.default.contents(atPath: scenarios.appendingPathComponent(relative).path) else { return [] }
            return (try? CertificateBundle.decode([UInt8](data)).certificates) ?? []
        }
    }()

    static let dates = [
        Date(timeIntervalSince1970: 1_906_588_800), Date(timeIntervalSince1970: 1_577_836_800),
        Date(timeIntervalSince1970: 2_366_841_600), Date(),
    ]

    static func run(_ bytes: [UInt8], backend: String) {
        guard let flags = bytes.first else { return }
        let body = Array(bytes.dropFirst())
        guard let certificates = try? CertificateBundle.decode(body).certificates, let leaf = certificates.first else {
            return
        }
        let crls = ((try? PEM.decode(body)) ?? []).filter { $0.label == "X509 CRL" }
            .compactMap { try? CertificateRevocationList(derEncoded: $0.bytes) }
        let policies: [TrustPolicy] = [
            .basicX509, .sslServer(host: "leaf.example"), .ssl(server: false, name: nil, profile: .apple),
            .email(address: "x@leaf.example", profile: .rfc5280),
        ]
        let lastIsAnchor = flags & 0x04 != 0 && certificates.count > 1
        var evaluation = TrustEvaluation(
            certificates: lastIsAnchor ? Array(certificates.dropLast()) : certificates,
            policies: [policies[Int(flags & 0x03)]],
            anchors: lastIsAnchor ? [certificates[certificates.count - 1]] : fixtureAnchors,
            verifyDate: dates[Int(flags >> 4) & 0x03], crls: crls)
        guard let evaluator = evaluators[backend] else { preconditionFailure("no backend \(backend)") }
        let report = evaluator.evaluate(evaluation)
        _ = report.error?.description
        _ = report.chain.map(\.description)
        precondition(report.result != .invalid, "an evaluation must end in a verdict")
        if flags & 0x08 != 0, let exceptions = report.exceptions {
            evaluation.exceptions = exceptions
            let again = evaluator.evaluate(evaluation)
            // Exceptions turn exactly the recoverable failures they name into proceed, nothing else.
            precondition(again.result == .proceed || again.result == report.result, "exceptions changed a verdict")
            _ = leaf
        }
    }
}
