@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation

/// Certificate Transparency made at run time: a root (the test's "system root"), logs whose keys the tests
/// generate (ECDSA P-256 and RSA 2048), leaves issued by the root with embedded SCTs, TLS SCT lists, OCSP
/// responses carrying SCTs, and log lists (v3 JSON). Every signature is made by the `openssl` command line
/// (`openssl dgst -sha256 -sign`), and the signed data of an SCT is written here by hand from RFC 6962 §3.2, not
/// with the code under test; a precertificate's TBSCertificate is the one `openssl x509 -req` made before the SCT
/// extension was added.
final class CTTestPKI: @unchecked Sendable {
    /// A log: its key file (`NAME.key`), its DER SPKI and log id, its operator.
    struct Log: Hashable {
        let name: String
        let operatorName: String
        let spki: [UInt8]
        let logID: [UInt8]
        let isRSA: Bool
    }

    /// A log as a list names it.
    struct Listed {
        var log: Log
        var state: String? = "usable"
        var stateTimestamp: Date = Date(timeIntervalSince1970: 1_500_000_000)
        var interval: (start: Date, end: Date)? = nil
        var tiled = false
    }

    let pki: TestPKI
    let root: Certificate
    let issuerKeyHash: [UInt8]
    private let lock = NSLock()
    private var counter = 0
    private var logs: [String: Log] = [:]

    /// One PKI for every test (the files are named per leaf, the minting is serialised).
    static let shared: Result<CTTestPKI, any Error> = Result { try CTTestPKI() }

    private init() throws {
        pki = try TestPKI(prefix: "certkit-ct")
        try pki.selfSigned(
            "root", subject: "/CN=CT Test Root", key: "ec:P-256", days: 3650,
            extensions: ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"])
        root = try pki.certificates("root.pem")[0]
        issuerKeyHash = try Self.sha256(root.publicKey.derEncoded, pki: pki)
        try pki.directory.write("leaf.ext", Array("""
            [leaf]
            subjectAltName=DNS:ct.example
            extendedKeyUsage=serverAuth
            keyUsage=critical,digitalSignature
            basicConstraints=critical,CA:FALSE
            subjectKeyIdentifier=hash
            authorityKeyIdentifier=keyid

            """.utf8))
    }

    private static func sha256(_ bytes: [UInt8], pki: TestPKI) throws -> [UInt8] {
        try pki.openssl(["dgst", "-sha256", "-binary"], input: .bytes(bytes))
    }

    /// The log `name` of `operatorName`, made on first use.
    func log(_ name: String, operator operatorName: String, rsa: Bool = false) throws -> Log {
        try lock.withLock {
            if let known = logs[name] { return known }
            try pki.makeKey(name, rsa ? "rsa:2048" : "ec:P-256")
            let spki = try pki.openssl(["pkey", "-in", "\(name).key", "-pubout", "-outform", "DER"])
            let log = Log(name: name, operatorName: operatorName, spki: spki, logID: try Self.sha256(spki, pki: pki), isRSA: rsa)
            logs[name] = log
            return log
        }
    }

    /// `data` signed with `key`.key (SHA-256; ECDSA or RSA PKCS#1 v1.5 by the key's type).
    func sign(_ data: [UInt8], with key: String) throws -> [UInt8] {
        try pki.openssl(["dgst", "-sha256", "-sign", "\(key).key", "-binary"], input: .bytes(data))
    }

    // MARK: SCTs

    /// The digitally-signed struct of RFC 6962 §3.2, written out: version, signature_type, timestamp,
    /// entry_type (uint16), the entry, the extensions.
    static func signedData(timestamp: UInt64, entryType: UInt16, entry: [UInt8], extensions: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = [0, 0]
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: timestamp >> UInt64(shift))) }
        out += [UInt8(entryType >> 8), UInt8(truncatingIfNeeded: entryType)]
        out += entry
        out += [UInt8(extensions.count >> 8), UInt8(truncatingIfNeeded: extensions.count)] + extensions
        return out
    }

    static func length24(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8(bytes.count >> 16), UInt8(truncatingIfNeeded: bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count)] + bytes
    }

    static func milliseconds(_ date: Date) -> UInt64 { UInt64(date.timeIntervalSince1970 * 1000) }

    /// An SCT by `log` at `time` over `entryType`/`entry`.
    func sct(_ log: Log, at time: Date, entryType: UInt16, entry: [UInt8]) throws -> SignedCertificateTimestamp {
        let timestamp = Self.milliseconds(time)
        let signature = try sign(Self.signedData(timestamp: timestamp, entryType: entryType, entry: entry), with: log.name)
        return SignedCertificateTimestamp(
            logID: log.logID, timestamp: timestamp, signatureAlgorithm: log.isRSA ? 1 : 3, signature: signature)
    }

    /// An SCT for `certificate` itself (x509_entry), as TLS or OCSP deliver it.
    func x509SCT(_ log: Log, at time: Date, for certificate: Certificate) throws -> SignedCertificateTimestamp {
        try sct(log, at: time, entryType: 0, entry: Self.length24(certificate.derEncoded))
    }

    /// The TLS encoding of a SignedCertificateTimestampList.
    static func list(_ scts: [SignedCertificateTimestamp]) -> [UInt8] {
        let items = scts.flatMap { sct -> [UInt8] in
            let bytes = sct.encoded
            return [UInt8(bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count)] + bytes
        }
        return [UInt8(items.count >> 8), UInt8(truncatingIfNeeded: items.count)] + items
    }

    /// A TLS SCT list for `certificate`, one SCT per (log, time).
    func tlsList(for certificate: Certificate, _ entries: [(Log, Date)]) throws -> [UInt8] {
        Self.list(try entries.map { try x509SCT($0.0, at: $0.1, for: certificate) })
    }

    // MARK: Certificates

    static let sctExtensionOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x02]
    static let ocspSCTExtensionOID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xD6, 0x79, 0x02, 0x04, 0x05]
    static let ecdsaWithSHA256: [UInt8] = [0x30, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x04, 0x03, 0x02]

    /// A leaf for ct.example issued by the root now, valid `days` days (its lifetime is exactly that), with
    /// embedded SCTs (one per (log, time), signed over its TBSCertificate before the extension was added). `mutate`
    /// changes the SCT list before it goes into the certificate.
    func leaf(
        days: Int, embedded: [(Log, Date)] = [], mutate: ([SignedCertificateTimestamp]) -> [SignedCertificateTimestamp] = { $0 }
    ) throws -> Certificate {
        let number = lock.withLock {
            counter += 1
            return counter
        }
        let name = "leaf\(number)"
        try pki.issue(
            name, subject: "/CN=ct.example", issuer: "root", extensionFile: "leaf.ext", section: "leaf",
            serial: String(format: "0x%06X", 0x100000 + number), days: days)
        let base = try pki.certificates("\(name).pem")[0]
        guard !embedded.isEmpty else { return base }
        let tbs = base.tbsCertificateBytes
        let entry = issuerKeyHash + Self.length24(tbs)
        let scts = mutate(try embedded.map { try sct($0.0, at: $0.1, entryType: 1, entry: entry) })
        let extensionDER = DERBuilder.extension(Self.sctExtensionOID, DERBuilder.tlv(0x04, Self.list(scts)))
        return try certificate(tbs: Self.appending(extensionDER, to: tbs))
    }

    /// A certificate of `tbs` signed by the root.
    func certificate(tbs: [UInt8]) throws -> Certificate {
        let signature = try sign(tbs, with: "root")
        return try Certificate(derEncoded: DERBuilder.sequence([tbs, Self.ecdsaWithSHA256, DERBuilder.tlv(0x03, [0] + signature)]))
    }

    /// `tbs` with `extensionDER` appended to its extensions.
    static func appending(_ extensionDER: [UInt8], to tbs: [UInt8]) throws -> [UInt8] {
        try DERReader.read(tbs) { top throws(CertificateDecodingError) in
            var fields = try top.read(DERTag.sequence, "tbs").children()
            var out: [[UInt8]] = []
            while let field = try fields.next() {
                if field.tag == 0xA3 {
                    var explicit = try field.children()
                    let list = try explicit.read(DERTag.sequence, "extensions")
                    out.append(DERBuilder.tlv(0xA3, DERBuilder.tlv(0x30, list.contentBytes + extensionDER)))
                } else {
                    out.append(field.encoded)
                }
            }
            return DERBuilder.sequence(out)
        }
    }

    // MARK: OCSP

    static func generalizedTime(_ date: Date) -> [UInt8] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return DERBuilder.tlv(0x18, Array(formatter.string(from: date).utf8))
    }

    /// A good OCSP response about `leaf`, signed by the root, produced at `date`, valid a week, whose single
    /// response carries `sctList` (the TLS encoding) in its SCT extension.
    func ocspResponse(for leaf: Certificate, at date: Date, sctList: [UInt8]) throws -> OCSPResponse {
        let sha1 = try pki.openssl(["dgst", "-sha1", "-binary"], input: .bytes(root.subject.derEncoded))
        let keyBits = try require_(OCSPResponseParser.subjectPublicKeyBits(root.publicKey))
        let keyHash = try pki.openssl(["dgst", "-sha1", "-binary"], input: .bytes(keyBits))
        let certID = DERBuilder.sequence([
            [0x30, 0x09, 0x06, 0x05, 0x2B, 0x0E, 0x03, 0x02, 0x1A, 0x05, 0x00],
            DERBuilder.tlv(0x04, sha1), DERBuilder.tlv(0x04, keyHash), DERBuilder.tlv(0x02, leaf.serialNumber),
        ])
        let extensions = DERBuilder.tlv(0xA1, DERBuilder.sequence([
            DERBuilder.extension(Self.ocspSCTExtensionOID, DERBuilder.tlv(0x04, sctList)),
        ]))
        let single = DERBuilder.sequence([
            certID, [0x80, 0x00], Self.generalizedTime(date),
            DERBuilder.tlv(0xA0, Self.generalizedTime(date.addingTimeInterval(7 * 86_400))), extensions,
        ])
        let responseData = DERBuilder.sequence([
            DERBuilder.tlv(0xA2, DERBuilder.tlv(0x04, keyHash)), Self.generalizedTime(date), DERBuilder.sequence([single]),
        ])
        let basic = DERBuilder.sequence([
            responseData, Self.ecdsaWithSHA256, DERBuilder.tlv(0x03, [0] + (try sign(responseData, with: "root"))),
        ])
        let response = DERBuilder.sequence([
            [0x0A, 0x01, 0x00],
            DERBuilder.tlv(0xA0, DERBuilder.sequence([
                DERBuilder.tlv(0x06, [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x30, 0x01, 0x01]), DERBuilder.tlv(0x04, basic),
            ])),
        ])
        return try OCSPResponse(derEncoded: response)
    }

    // MARK: Log lists

    static func rfc3339(_ date: Date) -> String { ISO8601Text.timestamp(date) }

    /// The v3 JSON of a list published at `timestamp` naming `logs`, grouped by operator in order.
    static func logListJSON(timestamp: Date, _ logs: [Listed]) -> String {
        var operators: [String] = []
        for listed in logs where !operators.contains(listed.log.operatorName) { operators.append(listed.log.operatorName) }
        func entry(_ listed: Listed) -> String {
            var members = [
                "\"description\": \"\(listed.log.name) log\"",
                "\"log_id\": \"\(Base64.encode(listed.log.logID))\"",
                "\"key\": \"\(Base64.encode(listed.log.spki))\"",
                "\"mmd\": 86400",
                listed.tiled
                    ? "\"submission_url\": \"https://\(listed.log.name).example/\""
                    : "\"url\": \"https://\(listed.log.name).example/\"",
            ]
            if let state = listed.state {
                members.append("\"state\": {\"\(state)\": {\"timestamp\": \"\(rfc3339(listed.stateTimestamp))\"}}")
            }
            if let interval = listed.interval {
                members.append(
                    "\"temporal_interval\": {\"start_inclusive\": \"\(rfc3339(interval.start))\", \"end_exclusive\": \"\(rfc3339(interval.end))\"}")
            }
            return "{" + members.joined(separator: ", ") + "}"
        }
        let body = operators.map { name in
            let own = logs.filter { $0.log.operatorName == name }
            return """
                {"name": "\(name)", "email": ["ct@\(name).example"], "logs": [\(own.filter { !$0.tiled }.map(entry).joined(separator: ", "))], \
                "tiled_logs": [\(own.filter(\.tiled).map(entry).joined(separator: ", "))]}
                """
        }
        return """
            {"version": "1.0", "log_list_timestamp": "\(rfc3339(timestamp))", "operators": [\(body.joined(separator: ", "))]}
            """
    }

    static func logList(timestamp: Date, _ logs: [Listed]) throws -> CTLogList {
        try CTLogList(json: Array(logListJSON(timestamp: timestamp, logs).utf8), source: "test-list.json")
    }

    // MARK: Evaluation

    /// The SSL-server evaluation of `leaf` for ct.example under `profile` at `date`, with the root as the
    /// evaluator's system root (or, with `appAnchors`, as the app's anchor).
    func evaluate(
        _ leaf: Certificate, at date: Date, list: CTLogList?, profile: TrustProfile, backend: any TrustBackend,
        tls: [[UInt8]] = [], ocsp: [OCSPResponse] = [], appAnchors: Bool = false,
        evaluator: TrustEvaluator? = nil
    ) -> TrustReport {
        let root = self.root
        let evaluator = evaluator ?? TrustEvaluator(backend: backend, configuration: .uncached, systemAnchors: { [root] })
        var evaluation = TrustEvaluation(
            certificates: [leaf], policies: [.sslServer(host: "ct.example", profile: profile)],
            anchors: appAnchors ? [root] : [], anchorsOnly: appAnchors, verifyDate: date)
        evaluation.certificateTransparencyLogList = list
        evaluation.tlsSignedCertificateTimestamps = tls
        evaluation.ocspResponses = ocsp
        return evaluator.evaluate(evaluation)
    }
}

/// `value`, or an error when it is nil (usable outside a test function).
func require_<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw ProcessError("missing \(what)") }
    return value
}
