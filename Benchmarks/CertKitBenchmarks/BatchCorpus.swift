import CBaselines
import CertKit
import Foundation

/// A PKI generated at start (OpenSSL, ECDSA P-256): root and intermediate A (the anchor's hierarchy), root and
/// intermediate B (untrusted), and fresh leaves on demand. Nothing is committed; every run makes new keys.
final class BatchPKI: @unchecked Sendable {
    private let handle: OpaquePointer
    let rootA: [UInt8]
    let intermediateA: [UInt8]
    let rootB: [UInt8]
    let intermediateB: [UInt8]

    init() {
        guard let handle = cb_pki_new() else { fail("cannot generate the batch PKI") }
        self.handle = handle
        func ca(_ which: Int32) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let length = cb_pki_ca_der(handle, which, &buffer, buffer.count)
            guard length > 0 else { fail("cannot encode CA \(which)") }
            return Array(buffer.prefix(Int(length)))
        }
        rootA = ca(0)
        intermediateA = ca(1)
        rootB = ca(2)
        intermediateB = ca(3)
    }

    deinit { cb_pki_free(handle) }

    /// A new leaf for `host` issued by intermediate A (or B when `untrusted`), valid from `notBefore` to `notAfter`.
    func leaf(serial: UInt64, host: String, untrusted: Bool, notBefore: Date, notAfter: Date) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let length = host.withCString { name in
            cb_pki_leaf_der(handle, untrusted ? 1 : 0, serial, name, Int64(notBefore.timeIntervalSince1970),
                            Int64(notAfter.timeIntervalSince1970), &buffer, buffer.count)
        }
        guard length > 0 else { fail("cannot make leaf \(serial)") }
        return Array(buffer.prefix(Int(length)))
    }
}

/// What a corpus line is made to test, and the verdict it must get.
enum BatchCategory: String, CaseIterable, Sendable {
    case good, expired, wrongHost = "wrong-host", untrusted

    /// The line's expected result and failed check (the error's `check`), at ``BatchCorpus/date``.
    var expected: (result: String, check: String?) {
        switch self {
        case .good: ("unspecified", nil)
        case .expired: ("recoverableTrustFailure", "TemporalValidity")
        case .wrongHost: ("recoverableTrustFailure", "SSLHostname")
        case .untrusted: ("recoverableTrustFailure", "AnchorTrusted")
        }
    }
}

/// Batch input lines over a ``BatchPKI``: every line a fresh leaf (its own serial, name and signature) plus the
/// shared intermediate, as base64 DER (every eighth intermediate as PEM text, to mix the formats); an untrusted
/// chain goes up to root B, which is not an anchor.
struct BatchCorpus {
    let pki: BatchPKI

    /// The date the corpus is judged at (`--at`).
    static let date = ISO8601DateFormatter().date(from: "2030-06-01T00:00:00Z")!
    private static let validFrom = ISO8601DateFormatter().date(from: "2030-01-01T00:00:00Z")!
    private static let validTo = ISO8601DateFormatter().date(from: "2031-01-01T00:00:00Z")!
    private static let expiredFrom = ISO8601DateFormatter().date(from: "2029-01-01T00:00:00Z")!
    private static let expiredTo = ISO8601DateFormatter().date(from: "2029-12-31T00:00:00Z")!

    /// The category of line `index` in a mixed corpus: good, expired, wrong host, untrusted in turn.
    static func category(mixed index: Int) -> BatchCategory { BatchCategory.allCases[index % 4] }

    /// Line `index` (its id) of category `category`: the JSON line (without newline) and the chain's DER.
    func line(_ index: Int, _ category: BatchCategory) -> (json: String, chain: [[UInt8]]) {
        let host = "leaf-\(index).example"
        let expired = category == .expired, untrusted = category == .untrusted
        let leaf = pki.leaf(
            serial: UInt64(1_000 + index), host: host, untrusted: untrusted,
            notBefore: expired ? Self.expiredFrom : Self.validFrom, notAfter: expired ? Self.expiredTo : Self.validTo)
        let intermediate = untrusted ? pki.intermediateB : pki.intermediateA
        let intermediateText = index % 8 == 7
            ? PEM.encode(intermediate).replacingOccurrences(of: "\n", with: "\\n")
            : Data(intermediate).base64EncodedString()
        let lineHost = category == .wrongHost ? "other-\(index).example" : host
        let root = untrusted ? "\",\"" + Data(pki.rootB).base64EncodedString() : ""
        let json = #"{"id":\#(index),"chain":["\#(Data(leaf).base64EncodedString())","\#(intermediateText)\#(root)"],"host":"\#(lineHost)"}"#
        return (json, [leaf, intermediate] + (untrusted ? [pki.rootB] : []))
    }

    /// Writes a mixed corpus of `count` lines to `directory`: `anchors.pem` (root A), `corpus.ndjson` and
    /// `expected.tsv` (id, category, result, check).
    static func write(count: Int, to directory: String) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch { fail("cannot create \(directory): \(error)") }
        let pki = BatchPKI()
        let corpus = BatchCorpus(pki: pki)
        write(Data(PEM.encode(pki.rootA).utf8), to: "\(directory)/anchors.pem")
        let corpusPath = "\(directory)/corpus.ndjson", expectedPath = "\(directory)/expected.tsv"
        _ = FileManager.default.createFile(atPath: corpusPath, contents: nil)
        _ = FileManager.default.createFile(atPath: expectedPath, contents: nil)
        guard let lines = FileHandle(forWritingAtPath: corpusPath), let expected = FileHandle(forWritingAtPath: expectedPath)
        else { fail("cannot write in \(directory)") }
        var linesBuffer = "", expectedBuffer = "id\tcategory\tresult\tcheck\n"
        for index in 0..<count {
            let category = category(mixed: index)
            linesBuffer += corpus.line(index, category).json + "\n"
            let verdict = category.expected
            expectedBuffer += "\(index)\t\(category.rawValue)\t\(verdict.result)\t\(verdict.check ?? "-")\n"
            if index % 1_000 == 999 || index == count - 1 {
                lines.write(Data(linesBuffer.utf8))
                expected.write(Data(expectedBuffer.utf8))
                linesBuffer = ""
                expectedBuffer = ""
            }
        }
        try? lines.close()
        try? expected.close()
        emit("wrote \(count) lines to \(corpusPath), anchors \(directory)/anchors.pem, verdicts \(expectedPath)")
    }

    private static func write(_ data: Data, to path: String) {
        guard FileManager.default.createFile(atPath: path, contents: data) else { fail("cannot write \(path)") }
    }
}

/// The batch options of the benchmark command line.
struct BatchSettings {
    var chains = 10_000
    var memoryChains = 200_000
    var corpusDirectory: String?
    var corpusCount = 100_000
}
