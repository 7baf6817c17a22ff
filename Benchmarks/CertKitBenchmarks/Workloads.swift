import CertKit
import Foundation

/// Fails the run with a message (benchmarks have no one to recover for).
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("certkit-benchmarks: \(message)\n".utf8))
    exit(1)
}

/// Reads the certificates of a PEM/DER file.
func loadCertificates(_ path: String) -> [Certificate] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    do { return try CertificateBundle.decode([UInt8](data)).certificates } catch { fail("\(path): \(error)") }
}

/// One chain to evaluate: what the peer sends (leaf first, then its pool), the anchors, the host.
struct ChainWorkload {
    let name: String
    /// Leaf first, then the pool.
    let chain: [Certificate]
    let anchors: [Certificate]
    let host: String
    let date: Date
    /// What the GnuTLS baseline is given: GnuTLS verifies a list as a chain (at most 16, sorted by issuer), so
    /// for a pool it gets the path itself; OpenSSL gets the whole pool and builds the path.
    var gnutlsChain: [Certificate]? = nil

    /// The scenarios' verify date (every fixture is valid then).
    static let fixtureDate = ISO8601DateFormatter().date(from: "2030-06-01T00:00:00Z")!

    static func scenario(_ name: String, directory: String, anchor: String) -> ChainWorkload {
        ChainWorkload(
            name: name, chain: loadCertificates("\(directory)/\(name)/chain.pem"),
            anchors: loadCertificates("\(directory)/\(name)/\(anchor)"), host: "leaf.example", date: fixtureDate)
    }

    /// The wide pool: the distractor-pool leaf, 50 distractor intermediates plus the real intermediate in the pool,
    /// and 150 anchors (the real root, the system bundle, then spare distractors to make up the number).
    static func widePool(directory: String) -> ChainWorkload {
        let base = "\(directory)/distractor-pool"
        let leaf = loadCertificates("\(base)/chain.pem")
        let intermediates = loadCertificates("\(base)/intermediates.pem")
        guard let needed = intermediates.last, intermediates.count > 60 else { fail("\(base): unexpected pool") }
        let distractors = Array(intermediates.dropLast())
        var anchors = loadCertificates("\(base)/root-rsa.pem") + SystemTrustStore.certificates.prefix(149)
        var spare = distractors.dropFirst(50).makeIterator()
        while anchors.count < 150, let extra = spare.next() { anchors.append(extra) }
        return ChainWorkload(
            name: "wide-pool", chain: leaf + distractors.prefix(50) + [needed], anchors: anchors, host: "leaf.example",
            date: fixtureDate, gnutlsChain: leaf + [needed])
    }

    /// The 50-CA mesh with no path to the anchor.
    static func mesh(directory: String) -> ChainWorkload {
        let base = "\(directory)/mesh-no-path"
        return ChainWorkload(
            name: "mesh-no-path",
            chain: loadCertificates("\(base)/chain.pem") + loadCertificates("\(base)/intermediates.pem"),
            anchors: loadCertificates("\(base)/other-root-rsa.pem"), host: "leaf.example", date: fixtureDate)
    }

    /// The evaluation certkit runs for this workload.
    func evaluation(chain: [Certificate]? = nil) -> TrustEvaluation {
        TrustEvaluation(
            certificates: chain ?? self.chain, policies: [.sslServer(host: host)], anchors: anchors, verifyDate: date)
    }

    /// The DER of the chain, as it would arrive from a peer.
    var chainDER: [[UInt8]] { chain.map(\.derEncoded) }
}

/// The PEM bundle of 1000 certificates: the system bundle repeated (generated at start, nothing committed).
func thousandCertificatePEM() -> (text: [UInt8], count: Int) {
    let system = SystemTrustStore.certificates
    guard !system.isEmpty else { fail("\(SystemTrustStore.problem ?? "the system bundle is empty")") }
    var text = ""
    for index in 0..<1_000 { text += PEM.encode(system[index % system.count].derEncoded) }
    return (Array(text.utf8), 1_000)
}

/// Writes one line to standard output at once (unbuffered, so progress shows when piped).
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
