import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation

/// Fixture loading and evaluation inputs shared by the cache and concurrency tests.
enum ConcurrencyFixtures {
    struct FixtureError: Error, CustomStringConvertible {
        var description: String
    }

    /// The scenarios directory (Tests/Fixtures/scenarios).
    static let directory = FixtureLocator.scenarios

    /// An ISO 8601 day at midnight UTC, e.g. `date("2030-06-01")`.
    static func date(_ day: String) -> Date {
        ISO8601DateFormatter().date(from: day + "T00:00:00Z")!
    }

    /// The fixtures' verify date.
    static let verifyDate = date("2030-06-01")

    /// The certificates of `relativePath` (PEM), parsed by the core.
    static func certificates(_ relativePath: String) throws -> [Certificate] {
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        return try CertificateBundle.decode([UInt8](data)).certificates
    }

    /// The CRL of `relativePath` (one PEM block).
    static func crl(_ relativePath: String) throws -> CertificateRevocationList {
        let data = try Data(contentsOf: directory.appendingPathComponent(relativePath))
        guard let crl = try CertificateRevocationList.decodeAll([UInt8](data)).first else {
            throw FixtureError(description: "no CRL in \(relativePath)")
        }
        return crl
    }

    /// Every backend of the registry, by name.
    static let backends: [String: any TrustBackend] = Dictionary(
        uniqueKeysWithValues: BackendRegistry.standard.entries.map { ($0.name, $0.backend()) })

    /// The backend called `name`.
    static func backend(_ name: String) -> any TrustBackend { backends[name]! }

    /// An SSL-server evaluation of `chain` for `host` against `anchors` at `date`.
    static func evaluation(
        chain: [Certificate], anchors: [Certificate], host: String = "leaf.example", date: Date = verifyDate
    ) -> TrustEvaluation {
        TrustEvaluation(certificates: chain, policies: [.sslServer(host: host)], anchors: anchors, verifyDate: date)
    }
}
