import CertKit
import Foundation
import Testing

/// One entry of Tests/Fixtures/scenarios.json (schema in Tests/Fixtures/README.md).
struct ConformanceScenario: Decodable, Sendable, CustomTestStringConvertible {
    struct Expectation: Decodable, Sendable {
        var result: String
        var error: String?
        var checks: [String: [String]]
        var chainSubjects: [String]?
    }

    struct BackendDifference: Decodable, Sendable {
        var reason: String
        var expected: Expectation
    }

    var name: String
    var description: String
    var chain: String
    var anchors: [String]
    var intermediates: [String]
    var crls: [String]
    var alwaysTrust: [String]
    var distrust: [String]
    var pins: [String]
    var exceptions: String?
    var policy: String
    var host: String?
    var ip: String?
    var email: String?
    var profile: String
    var maxDepth: Int?
    var verifyDate: String
    var expected: Expectation
    var backendDifferences: [String: BackendDifference]

    var testDescription: String { name }

    /// The expectation for `backend`, with a documented difference applied.
    func expectation(for backend: String) -> Expectation {
        backendDifferences[backend]?.expected ?? expected
    }

    /// Builds the evaluation the scenario describes.
    func makeEvaluation() throws -> TrustEvaluation {
        let profile = TrustProfile(rawValue: self.profile) ?? .apple
        let name: PeerName? = host.map { PeerName.parse($0) } ?? ip.map { PeerName.parse($0) }
        let trustPolicy: TrustPolicy
        switch policy {
        case "ssl-server": trustPolicy = .ssl(server: true, name: name, profile: profile)
        case "ssl-client": trustPolicy = .ssl(server: false, name: name, profile: profile)
        default: trustPolicy = email.map { .email(address: $0, profile: profile) } ?? .basicX509
        }
        let exceptionsValue = try exceptions.map { try TrustExceptions(jsonData: Fixtures.data($0)) }
        return TrustEvaluation(
            certificates: try Fixtures.certificates(chain),
            policies: [trustPolicy],
            anchors: try anchors.flatMap(Fixtures.certificates),
            verifyDate: try Fixtures.date(verifyDate),
            trustSettings: TrustSettings(
                alwaysTrust: try alwaysTrust.flatMap(Fixtures.certificates),
                distrust: try distrust.flatMap(Fixtures.certificates)),
            exceptions: exceptionsValue,
            crls: try crls.flatMap(Fixtures.crls),
            pins: pins.compactMap { SPKIPin($0) },
            additionalIntermediates: try intermediates.flatMap(Fixtures.certificates),
            maxDepth: maxDepth ?? TrustEvaluation.defaultMaxDepth)
    }
}

/// Loads fixtures relative to Tests/Fixtures.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let scenariosDirectory = root.appendingPathComponent("scenarios")

    static func data(_ relative: String) throws -> Data {
        try Data(contentsOf: scenariosDirectory.appendingPathComponent(relative))
    }

    static func certificates(_ relative: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](data(relative))).certificates
    }

    static func crls(_ relative: String) throws -> [CertificateRevocationList] {
        let bytes = [UInt8](try data(relative))
        let blocks = try PEM.decode(bytes)
        if blocks.isEmpty { return [try CertificateRevocationList(derEncoded: bytes)] }
        return try blocks.filter { $0.label == "X509 CRL" }.map { try CertificateRevocationList(derEncoded: $0.bytes) }
    }

    static func date(_ text: String) throws -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { throw CocoaError(.formatting) }
        return date
    }

    static let scenarios: [ConformanceScenario] = {
        do {
            let data = try Data(contentsOf: root.appendingPathComponent("scenarios.json"))
            return try JSONDecoder().decode([ConformanceScenario].self, from: data)
        } catch {
            fatalError("cannot read scenarios.json: \(error)")
        }
    }()
}
