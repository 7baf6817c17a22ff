@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// Certificate Transparency under the apple (Apple's published policy) and webpki (Chrome's) profiles, with logs,
/// SCTs, precertificates and OCSP responses minted at run time (``CTTestPKI``), on every backend: each counting
/// boundary of both policies, the log states, the list's age, SCTs that must not count, and when the policy is
/// not enforced.
@Suite("Certificate Transparency: the apple and webpki policies")
struct CertificateTransparencyTests {
    static let backends = BackendRegistry.standard.names

    /// One policy case with the default list (every log usable): which logs' SCTs are embedded, sent by TLS or in
    /// an OCSP answer, and whether the leaf complies.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let profile: TrustProfile
        var days = 180
        var embedded: [String] = []
        var tls: [String] = []
        var ocsp: [String] = []
        let compliant: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "apple: 2 embedded of 2 operators, 180 days", profile: .apple, embedded: ["a1", "b1"], compliant: true),
        Case(name: "apple: 2 embedded of one operator, 180 days", profile: .apple, embedded: ["a1", "a2"], compliant: false),
        Case(name: "apple: 1 embedded (one short)", profile: .apple, embedded: ["a1"], compliant: false),
        Case(name: "apple: 2 embedded of 2 operators, 181 days", profile: .apple, days: 181, embedded: ["a1", "b1"], compliant: false),
        Case(name: "apple: 3 embedded, 2 of one operator, 181 days", profile: .apple, days: 181, embedded: ["a1", "a2", "b1"], compliant: true),
        Case(name: "apple: 3 embedded of one operator counted once per log, 181 days", profile: .apple, days: 181, embedded: ["a1", "a2", "a1"], compliant: false),
        Case(name: "apple: 3 embedded of one operator (at most 2 count), 181 days", profile: .apple, days: 181, embedded: ["a1", "a2", "a3"], compliant: false),
        Case(name: "apple: 2 by TLS of one operator", profile: .apple, tls: ["a1", "a2"], compliant: true),
        Case(name: "apple: 1 by TLS (one short)", profile: .apple, tls: ["a1"], compliant: false),
        Case(name: "apple: 2 by TLS from the same log (one log)", profile: .apple, tls: ["a1", "a1"], compliant: false),
        Case(name: "apple: 1 embedded and 1 by TLS", profile: .apple, embedded: ["a1"], tls: ["a2"], compliant: true),
        Case(name: "apple: 1 embedded and 1 in OCSP", profile: .apple, embedded: ["a1"], ocsp: ["b1"], compliant: true),
        Case(name: "apple: 2 embedded, one from an unknown log", profile: .apple, embedded: ["a1", "unlisted"], compliant: false),
        Case(name: "webpki: 2 embedded of 2 operators, 180 days", profile: .webpki, embedded: ["a1", "b1"], compliant: true),
        Case(name: "webpki: 2 embedded of one operator", profile: .webpki, embedded: ["a1", "a2"], compliant: false),
        Case(name: "webpki: 1 embedded (one short)", profile: .webpki, embedded: ["a1"], compliant: false),
        Case(name: "webpki: 2 embedded of 2 operators, 181 days", profile: .webpki, days: 181, embedded: ["a1", "b1"], compliant: false),
        Case(name: "webpki: 3 embedded of 2 operators, 181 days", profile: .webpki, days: 181, embedded: ["a1", "a2", "b1"], compliant: true),
        Case(name: "webpki: 3 embedded of one operator, 181 days", profile: .webpki, days: 181, embedded: ["a1", "a2", "a3"], compliant: false),
        Case(name: "webpki: 2 by TLS of 2 operators", profile: .webpki, tls: ["a1", "b1"], compliant: true),
        Case(name: "webpki: 2 by TLS of one operator", profile: .webpki, tls: ["a1", "a2"], compliant: false),
        Case(name: "webpki: 1 embedded and 1 by TLS (neither path)", profile: .webpki, embedded: ["a1"], tls: ["b1"], compliant: false),
        Case(name: "webpki: 1 in OCSP and 1 by TLS of 2 operators", profile: .webpki, tls: ["b1"], ocsp: ["a1"], compliant: true),
        Case(name: "webpki: 2 embedded, one from an unknown log", profile: .webpki, embedded: ["a1", "unlisted"], compliant: false),
    ]

    /// The logs: operator A (a1, a2, a3: ECDSA), operator B (b1: RSA, b2: ECDSA), and one the lists never name.
    static func logs(_ pki: CTTestPKI) throws -> [String: CTTestPKI.Log] {
        [
            "a1": try pki.log("a1", operator: "A"), "a2": try pki.log("a2", operator: "A"),
            "a3": try pki.log("a3", operator: "A"), "b1": try pki.log("b1", operator: "B", rsa: true),
            "b2": try pki.log("b2", operator: "B"), "unlisted": try pki.log("unlisted", operator: "X"),
        ]
    }

    /// Every log but `unlisted`, usable, in a list published at `date` minus a day (`change` edits the entries).
    static func list(
        _ pki: CTTestPKI, at date: Date, ageDays: Double = 1, change: (inout [String: CTTestPKI.Listed]) -> Void = { _ in }
    ) throws -> CTLogList {
        var listed: [String: CTTestPKI.Listed] = [:]
        for (name, log) in try logs(pki) where name != "unlisted" { listed[name] = CTTestPKI.Listed(log: log) }
        change(&listed)
        return try CTTestPKI.logList(
            timestamp: date.addingTimeInterval(-ageDays * 86_400), listed.keys.sorted().map { listed[$0]! })
    }

    /// A leaf with SCTs from `embedded` (a minute before it was issued), and the verify date (an hour after).
    static func leaf(
        _ pki: CTTestPKI, days: Int = 180, embedded: [String], at offsets: [String: TimeInterval] = [:],
        mutate: @escaping ([SignedCertificateTimestamp]) -> [SignedCertificateTimestamp] = { $0 }
    ) throws -> (Certificate, Date) {
        let logs = try logs(pki)
        let now = Date()
        let entries = embedded.map { (logs[$0]!, now.addingTimeInterval(offsets[$0] ?? -60)) }
        let leaf = try pki.leaf(days: days, embedded: entries, mutate: mutate)
        #expect(leaf.notAfter.timeIntervalSince(leaf.notBefore) == TimeInterval(days) * 86_400)
        return (leaf, leaf.notBefore.addingTimeInterval(3600))
    }

    static func expect(_ report: TrustReport, compliant: Bool?, _ comment: Comment? = nil) {
        #expect(report.certificateTransparency?.compliant == compliant, comment)
        if compliant == false {
            #expect(report.result == .recoverableTrustFailure, comment)
            #expect(report.error?.check == .systemTrustedCTRequired, comment)
            #expect(report.error?.code == .errSecVerifyActionFailed, comment)
            #expect(report.checks[0] == [.systemTrustedCTRequired], comment)
        } else {
            #expect(report.result == .unspecified, "\(report.error?.message ?? "") \(comment?.rawValue ?? "")")
        }
    }

    @Test("each counting boundary of both policies", arguments: cases, backends)
    func countingBoundaries(_ testCase: Case, backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let logs = try Self.logs(pki)
        let (leaf, date) = try Self.leaf(pki, days: testCase.days, embedded: testCase.embedded)
        let before = leaf.notBefore.addingTimeInterval(-60)
        let tls = testCase.tls.isEmpty ? [] : [try pki.tlsList(for: leaf, testCase.tls.map { (logs[$0]!, before) })]
        let ocsp = testCase.ocsp.isEmpty ? [] : [
            try pki.ocspResponse(for: leaf, at: leaf.notBefore, sctList: try pki.tlsList(for: leaf, testCase.ocsp.map { (logs[$0]!, before) })),
        ]
        let report = pki.evaluate(
            leaf, at: date, list: try Self.list(pki, at: date), profile: testCase.profile, backend: backend, tls: tls, ocsp: ocsp)
        Self.expect(report, compliant: testCase.compliant, "\(testCase.name)")
        let scts = report.certificateTransparency?.scts ?? []
        #expect(scts.count == testCase.embedded.count + testCase.tls.count + testCase.ocsp.count)
        #expect(scts.filter { $0.source == .embedded }.count == testCase.embedded.count)
        #expect(scts.filter { $0.source == .tls }.count == testCase.tls.count)
        #expect(scts.filter { $0.source == .ocsp }.count == testCase.ocsp.count)
        for sct in scts where sct.logDescription != nil { #expect(sct.isValid, "\(sct.problem ?? "")") }
        if testCase.embedded.contains("unlisted") {
            #expect(scts.contains { $0.problem == "the log is not in the log list" })
        }
        if !testCase.ocsp.isEmpty { #expect(report.revocation.first?.outcome == .good) }
    }

    @Test("a retired log's SCT counts only when older than the retirement", arguments: backends)
    func retiredLog(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: ["a1", "b1"])
        for profile in [TrustProfile.apple, .webpki] {
            let after = try Self.list(pki, at: date) { $0["b1"]!.state = "retired"; $0["b1"]!.stateTimestamp = leaf.notBefore }
            Self.expect(pki.evaluate(leaf, at: date, list: after, profile: profile, backend: backend), compliant: true, "\(profile)")
            let before = try Self.list(pki, at: date) {
                $0["b1"]!.state = "retired"
                $0["b1"]!.stateTimestamp = leaf.notBefore.addingTimeInterval(-120)
            }
            let report = pki.evaluate(leaf, at: date, list: before, profile: profile, backend: backend)
            Self.expect(report, compliant: false, "\(profile)")
            #expect(report.certificateTransparency?.scts.contains { $0.problem?.contains("retired") == true } == true)
        }
        // Two retired logs: once approved, but Chrome wants one embedded SCT from a log approved now (so does Apple).
        let both = try Self.list(pki, at: date) {
            for name in ["a1", "b1"] { $0[name]!.state = "retired"; $0[name]!.stateTimestamp = date }
        }
        for profile in [TrustProfile.apple, .webpki] {
            Self.expect(pki.evaluate(leaf, at: date, list: both, profile: profile, backend: backend), compliant: false, "\(profile)")
        }
    }

    @Test("a read-only log is approved; a pending or rejected one is not", arguments: backends)
    func logStates(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: ["a1", "b1"])
        for profile in [TrustProfile.apple, .webpki] {
            let readOnly = try Self.list(pki, at: date) { $0["a1"]!.state = "readonly"; $0["b1"]!.state = "qualified" }
            Self.expect(pki.evaluate(leaf, at: date, list: readOnly, profile: profile, backend: backend), compliant: true)
            for state in ["pending", "rejected"] {
                let list = try Self.list(pki, at: date) { $0["b1"]!.state = state }
                let report = pki.evaluate(leaf, at: date, list: list, profile: profile, backend: backend)
                Self.expect(report, compliant: false, "\(profile) \(state)")
                #expect(report.certificateTransparency?.scts.contains { $0.problem == "the log is \(state) in the list" } == true)
            }
            let stateless = try Self.list(pki, at: date) { $0["b1"]!.state = nil }
            Self.expect(pki.evaluate(leaf, at: date, list: stateless, profile: profile, backend: backend), compliant: false)
        }
    }

    @Test("the list's age: apple enforces 60 days, not 61; webpki 70, not 71", arguments: backends)
    func staleList(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: [])
        for (profile, days) in [(TrustProfile.apple, 60.0), (.webpki, 70.0)] {
            let fresh = pki.evaluate(leaf, at: date, list: try Self.list(pki, at: date, ageDays: days), profile: profile, backend: backend)
            Self.expect(fresh, compliant: false, "\(profile) \(days) days")
            let stale = pki.evaluate(
                leaf, at: date, list: try Self.list(pki, at: date, ageDays: days + 1), profile: profile, backend: backend)
            Self.expect(stale, compliant: nil, "\(profile) \(days + 1) days")
            #expect(stale.certificateTransparency?.note.contains("\(Int(days) + 1) days old") == true)
            // A second past the bound is stale already.
            let second = try CTTestPKI.logList(
                timestamp: date.addingTimeInterval(-days * 86_400 - 1), [CTTestPKI.Listed(log: try pki.log("a1", operator: "A"))])
            Self.expect(pki.evaluate(leaf, at: date, list: second, profile: profile, backend: backend), compliant: nil)
        }
    }

    @Test("SCTs that do not count: bad signature, another certificate, future, outside the interval, unknown version",
          arguments: backends)
    func invalidSCTs(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let logs = try Self.logs(pki)
        func check(_ leaf: Certificate, _ date: Date, list: CTLogList? = nil, tls: [[UInt8]] = [], problem: String) throws {
            for profile in [TrustProfile.apple, .webpki] {
                let report = pki.evaluate(leaf, at: date, list: try list ?? Self.list(pki, at: date), profile: profile, backend: backend, tls: tls)
                Self.expect(report, compliant: false, "\(profile): \(problem)")
                #expect(report.certificateTransparency?.scts.contains { $0.problem?.contains(problem) == true } == true, "\(problem)")
            }
        }
        // One byte of b1's signature flipped.
        let (forged, date) = try Self.leaf(pki, embedded: ["a1", "b1"]) { scts in
            var changed = scts
            changed[1].signature[changed[1].signature.count / 2] ^= 0x01
            return changed
        }
        try check(forged, date, problem: "the signature does not verify")
        // TLS SCTs made for another certificate.
        let (other, _) = try Self.leaf(pki, embedded: [])
        let (plain, plainDate) = try Self.leaf(pki, embedded: [])
        let before = plain.notBefore.addingTimeInterval(-60)
        try check(plain, plainDate, tls: [try pki.tlsList(for: other, [(logs["a1"]!, before), (logs["b1"]!, before)])],
                  problem: "the signature does not verify")
        // b1's SCT a day after the verify date.
        let (future, futureDate) = try Self.leaf(pki, embedded: ["a1", "b1"], at: ["b1": 86_400 + 7200])
        try check(future, futureDate, problem: "in the future")
        // b1 accepts only certificates expiring in another year.
        let (late, lateDate) = try Self.leaf(pki, embedded: ["a1", "b1"])
        let interval = try Self.list(pki, at: lateDate) {
            $0["b1"]!.interval = (late.notAfter.addingTimeInterval(1), late.notAfter.addingTimeInterval(365 * 86_400))
        }
        try check(late, lateDate, list: interval, problem: "temporal interval")
        // The end is exclusive: an interval ending at the leaf's notAfter does not take it.
        let ending = try Self.list(pki, at: lateDate) { $0["b1"]!.interval = (late.notBefore, late.notAfter) }
        try check(late, lateDate, list: ending, problem: "temporal interval")
        let taking = try Self.list(pki, at: lateDate) { $0["b1"]!.interval = (late.notAfter, late.notAfter.addingTimeInterval(1)) }
        Self.expect(pki.evaluate(late, at: lateDate, list: taking, profile: .webpki, backend: backend), compliant: true)
        // Version 2 (1) is not understood.
        let (versioned, versionedDate) = try Self.leaf(pki, embedded: ["a1", "b1"]) { scts in
            var changed = scts
            changed[1] = SignedCertificateTimestamp(version: 1, logID: [], timestamp: 0, signatureAlgorithm: 0, signature: [])
            return changed
        }
        try check(versioned, versionedDate, problem: "version 1")
        // A list that gives b2's key under another log id: an SCT signed by b2's key naming that id is refused.
        let b2 = logs["b2"]!
        let impostor = CTTestPKI.Log(
            name: "b2", operatorName: "B", spki: b2.spki, logID: [UInt8](repeating: 0x42, count: 32), isRSA: false)
        let now = Date()
        let impostorLeaf = try pki.leaf(days: 180, embedded: [(logs["a1"]!, now.addingTimeInterval(-60)), (impostor, now.addingTimeInterval(-60))])
        let impostorDate = impostorLeaf.notBefore.addingTimeInterval(3600)
        let impostorList = try Self.list(pki, at: impostorDate) { $0["impostor"] = CTTestPKI.Listed(log: impostor) }
        try check(impostorLeaf, impostorDate, list: impostorList, problem: "log id is not the SHA-256")
    }

    @Test("apple requires an RFC 6962 log; webpki takes tiled logs alone", arguments: backends)
    func tiledLogs(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: ["a1", "b1"])
        let tiled = try Self.list(pki, at: date) { $0["a1"]!.tiled = true; $0["b1"]!.tiled = true }
        Self.expect(pki.evaluate(leaf, at: date, list: tiled, profile: .apple, backend: backend), compliant: false)
        Self.expect(pki.evaluate(leaf, at: date, list: tiled, profile: .webpki, backend: backend), compliant: true)
        let one = try Self.list(pki, at: date) { $0["a1"]!.tiled = true }
        Self.expect(pki.evaluate(leaf, at: date, list: one, profile: .apple, backend: backend), compliant: true)
    }

    @Test("not enforced: app-supplied anchors, no log list, the rfc5280 profile, a client policy", arguments: backends)
    func notEnforced(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: [])
        let list = try Self.list(pki, at: date)
        for profile in [TrustProfile.apple, .webpki] {
            let app = pki.evaluate(leaf, at: date, list: list, profile: profile, backend: backend, appAnchors: true)
            Self.expect(app, compliant: nil)
            #expect(app.certificateTransparency?.note.contains("the app") == true)
            let none = pki.evaluate(leaf, at: date, list: nil, profile: profile, backend: backend)
            #expect(none.certificateTransparency == nil)
            #expect(none.result == .unspecified)
        }
        #expect(pki.evaluate(leaf, at: date, list: list, profile: .rfc5280, backend: backend).certificateTransparency == nil)
        // The user's trust settings make the root an anchor: not a system root's chain either.
        let root = pki.root
        let evaluator = TrustEvaluator(backend: backend, configuration: .uncached, systemAnchors: { [root] })
        var settings = TrustEvaluation(
            certificates: [leaf], policies: [.sslServer(host: "ct.example")], anchorsOnly: false, verifyDate: date,
            trustSettings: TrustSettings(alwaysTrust: [root]))
        settings.certificateTransparencyLogList = list
        let report = evaluator.evaluate(settings)
        #expect(report.certificateTransparency?.compliant == nil)
        #expect(report.isTrusted)
    }

    @Test("the result cache keys on the log list and the TLS SCTs, and expires at the list's staleness", arguments: backends)
    func cache(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let logs = try Self.logs(pki)
        let (leaf, date) = try Self.leaf(pki, embedded: [])
        let root = pki.root
        let evaluator = TrustEvaluator(backend: backend, configuration: .cached, systemAnchors: { [root] })
        let list = try Self.list(pki, at: date)
        let before = leaf.notBefore.addingTimeInterval(-60)
        let tls = try pki.tlsList(for: leaf, [(logs["a1"]!, before), (logs["b1"]!, before)])
        let without = pki.evaluate(leaf, at: date, list: list, profile: .apple, backend: backend, evaluator: evaluator)
        Self.expect(without, compliant: false)
        let with = pki.evaluate(leaf, at: date, list: list, profile: .apple, backend: backend, tls: [tls], evaluator: evaluator)
        Self.expect(with, compliant: true)
        let noList = pki.evaluate(leaf, at: date, list: nil, profile: .apple, backend: backend, evaluator: evaluator)
        #expect(noList.certificateTransparency == nil)
        let other = try Self.list(pki, at: date) { $0["b1"]!.state = "pending" }
        Self.expect(pki.evaluate(leaf, at: date, list: other, profile: .apple, backend: backend, tls: [tls], evaluator: evaluator),
                    compliant: false)
        #expect(evaluator.cacheStatistics.resultHits == 0)
        // An hour later the same inputs are served; 60 days after the list (a day after it was published) they are
        // not enforced any more, and the cached verdict must not be served.
        Self.expect(pki.evaluate(leaf, at: date.addingTimeInterval(3600), list: list, profile: .apple, backend: backend, evaluator: evaluator),
                    compliant: false)
        #expect(evaluator.cacheStatistics.resultHits == 1)
        let later = pki.evaluate(leaf, at: date.addingTimeInterval(60 * 86_400), list: list, profile: .apple, backend: backend, evaluator: evaluator)
        Self.expect(later, compliant: nil)
    }

    @Test("an SCT in the future counts once the verify date passes it; the cache does not keep the earlier verdict",
          arguments: backends)
    func futureSCTCache(backend name: String) throws {
        let pki = try CTTestPKI.shared.get()
        let backend = ConcurrencyFixtures.backend(name)
        let (leaf, date) = try Self.leaf(pki, embedded: ["a1", "b1"], at: ["b1": 7200])
        let root = pki.root
        let evaluator = TrustEvaluator(backend: backend, configuration: .cached, systemAnchors: { [root] })
        let list = try Self.list(pki, at: date)
        Self.expect(pki.evaluate(leaf, at: date, list: list, profile: .webpki, backend: backend, evaluator: evaluator), compliant: false)
        Self.expect(pki.evaluate(leaf, at: date.addingTimeInterval(7200), list: list, profile: .webpki, backend: backend, evaluator: evaluator),
                    compliant: true)
    }
}
