import CertKit
import CertKitBackends
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

@Suite("TrustEvaluation: the SecTrust model")
struct TrustEvaluationModelTests {
    static let scenarios = FixtureLocator.scenarios
    static let verifyDate = Date(timeIntervalSince1970: 1_906_934_400)  // 2030-06-06

    static func load(_ relative: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](Data(contentsOf: scenarios.appendingPathComponent(relative)))).certificates
    }

    let evaluator = TrustEvaluator(backend: OpenSSLBackend())

    func validEvaluation(host: String = "leaf.example") throws -> TrustEvaluation {
        TrustEvaluation(
            certificates: try Self.load("valid-chain-rsa/chain.pem"), policies: [.sslServer(host: host)],
            anchors: try Self.load("valid-chain-rsa/root-rsa.pem"), verifyDate: Self.verifyDate)
    }

    @Test func resultIsInvalidUntilEvaluated() throws {
        var trust = try validEvaluation()
        #expect(trust.result == .invalid)
        #expect(trust.report == nil)
        _ = trust.evaluate(with: evaluator)
        #expect(trust.result == .unspecified)
    }

    @Test("changing any input resets the result to invalid")
    func anyChangeResets() throws {
        let base = try validEvaluation()
        let other = try Self.load("valid-chain-ec/root-ec.pem")
        let changes: [(String, (inout TrustEvaluation) -> Void)] = [
            ("certificates", { $0.certificates = Array($0.certificates.prefix(1)) }),
            ("policies", { $0.policies = [.basicX509] }),
            ("anchors", { $0.anchors = other }),
            ("anchorsOnly", { $0.anchorsOnly = false }),
            ("verifyDate", { $0.verifyDate = Date() }),
            ("trustSettings", { $0.trustSettings = TrustSettings(distrust: other) }),
            ("exceptions", { $0.exceptions = nil }),
            ("crls", { $0.crls = [] }),
            ("pins", { $0.pins = [] }),
            ("additionalIntermediates", { $0.additionalIntermediates = other }),
            ("maxDepth", { $0.maxDepth = 5 }),
        ]
        for (name, change) in changes {
            var trust = base
            _ = trust.evaluate(with: evaluator)
            #expect(trust.result == .unspecified)
            change(&trust)
            #expect(trust.result == .invalid, "changing \(name) must reset the result")
        }
    }

    @Test("the exceptions flow: accept a recoverable failure, then lose it on a new failure or another leaf")
    func exceptionsFlow() throws {
        var trust = try validEvaluation(host: "other.example")
        let first = trust.evaluate(with: evaluator)
        #expect(first.result == .recoverableTrustFailure)
        let exceptions = try #require(first.exceptions)
        #expect(exceptions.checks == [.sslHostname])

        // Saved and read back through the documented JSON form.
        let restored = try TrustExceptions(jsonData: exceptions.jsonData())
        #expect(restored == exceptions)
        let json = try #require(String(data: exceptions.jsonData(), encoding: .utf8))
        #expect(json.hasPrefix("{\"checks\":[\"SSLHostname\"],\"leafSHA256\":\""))

        trust.exceptions = restored
        #expect(trust.evaluate(with: evaluator).result == .proceed)

        // A new failure (the leaf expires) is not covered.
        trust.verifyDate = Date(timeIntervalSince1970: 1_940_000_000)  // 2031-06-25, after notAfter
        let later = trust.evaluate(with: evaluator)
        #expect(later.result == .recoverableTrustFailure)
        #expect(later.checks[0] == [.sslHostname, .temporalValidity])

        // Another leaf is not covered.
        var otherLeaf = TrustEvaluation(
            certificates: try Self.load("valid-chain-ec/chain.pem"), policies: [.sslServer(host: "other.example")],
            anchors: try Self.load("valid-chain-ec/root-ec.pem"), verifyDate: Self.verifyDate, exceptions: restored)
        #expect(otherLeaf.evaluate(with: evaluator).result == .recoverableTrustFailure)
    }

    @Test func exceptionsRejectMalformedJSON() {
        #expect(throws: (any Error).self) { try TrustExceptions(jsonData: Data("{}".utf8)) }
        #expect(throws: (any Error).self) {
            try TrustExceptions(jsonData: Data(#"{"version":2,"leafSHA256":"00","checks":[]}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try TrustExceptions(jsonData: Data(#"{"version":1,"leafSHA256":"zz","checks":["SSLHostname"]}"#.utf8))
        }
    }

    @Test("exceptions never cover fatal or deny failures")
    func exceptionsNeverCoverFatal() throws {
        let leaf = try #require(try Self.load("valid-chain-rsa/chain.pem").first)
        let digest = try OpenSSLBackend().digest(.sha256, of: leaf.derEncoded)
        let everything = TrustExceptions(leafSHA256: digest, checks: Set(TrustCheck.allCases))
        #expect(!everything.covers(leafSHA256: digest, failures: [.revocation]))
        #expect(!everything.covers(leafSHA256: digest, failures: [.usageConstraints, .sslHostname]))
        #expect(everything.covers(leafSHA256: digest, failures: [.sslHostname, .temporalValidity]))
        #expect(!everything.covers(leafSHA256: Array(digest.reversed()), failures: [.sslHostname]))
    }
}

@Suite("SecTrust fidelity")
struct SecTrustFidelityTests {
    static let directory = FixtureLocator.scenarios
    static func load(_ path: String) throws -> [Certificate] {
        try CertificateBundle.decode([UInt8](Data(contentsOf: directory.appendingPathComponent(path)))).certificates
    }
    let evaluator = TrustEvaluator(backend: OpenSSLBackend())
    let date = Date(timeIntervalSince1970: 1_906_502_400)

    @Test func withoutAnchorsTheSystemStoreIsUsedAndSettingAnchorsMakesThemTheOnlyOnes() throws {
        let chain = try Self.load("valid-chain-rsa/chain.pem")
        var trust = TrustEvaluation(certificates: chain)
        #expect(trust.anchorsOnly == false, "no anchors: the system roots, as SecTrust")
        trust.anchors = try Self.load("valid-chain-rsa/root-rsa.pem")
        #expect(trust.anchorsOnly == true, "SecTrustSetAnchorCertificates makes the anchors the only ones")
        trust.anchorsOnly = false
        #expect(trust.anchorsOnly == false)
        trust.anchors = []
        #expect(trust.anchorsOnly == false)
        #expect(TrustEvaluation(certificates: chain, anchors: chain).anchorsOnly)
        #expect(!TrustEvaluation(certificates: chain, anchors: chain, anchorsOnly: false).anchorsOnly)
    }

    @Test func evaluateWithErrorThrowsTheReportedErrorAndReturnsTrustedReports() throws {
        let chain = try Self.load("valid-chain-rsa/chain.pem")
        let root = try Self.load("valid-chain-rsa/root-rsa.pem")
        var good = TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: "leaf.example")], anchors: root, verifyDate: date)
        #expect(try good.evaluateWithError(with: evaluator).result == .unspecified)
        var wrongHost = good
        wrongHost.policies = [.sslServer(host: "other.example")]
        #expect(throws: TrustError(check: .sslHostname, certificateIndex: 0, message: "any message")) {
            try wrongHost.evaluateWithError(with: evaluator)
        }
        #expect(wrongHost.result == .recoverableTrustFailure)
    }

    @Test func errorsCompareByCheckAndCertificateNotByMessage() {
        let a = TrustError(check: .temporalValidity, certificateIndex: 1, message: "one")
        #expect(a == TrustError(check: .temporalValidity, certificateIndex: 1, message: "two"))
        #expect(a != TrustError(check: .temporalValidity, certificateIndex: 0, message: "one"))
        #expect(a != TrustError(check: .sslHostname, certificateIndex: 1, message: "one"))
        #expect(Set([a, TrustError(check: .temporalValidity, certificateIndex: 1, message: "x")]).count == 1)
    }

    @Test func theResultCacheIsOptIn() {
        #expect(TrustEvaluator.Configuration.default.resultCacheEnabled == false)
        #expect(TrustEvaluator.Configuration.cached.resultCacheEnabled)
    }
}

@Suite("Several policies")
struct SeveralPoliciesTests {
    @Test func eachPolicyIsReportedAndTheFailingOneNamesTheError() throws {
        let chain = try SecTrustFidelityTests.load("valid-chain-rsa/chain.pem")
        let root = try SecTrustFidelityTests.load("valid-chain-rsa/root-rsa.pem")
        let date = Date(timeIntervalSince1970: 1_906_502_400)
        for backend in BackendRegistry.standard.allBackends() {
            let evaluation = TrustEvaluation(
                certificates: chain, policies: [.basicX509, .sslServer(host: "other.example")], anchors: root,
                verifyDate: date)
            let report = TrustEvaluator(backend: backend).evaluate(evaluation)
            #expect(report.result == .recoverableTrustFailure)
            #expect(report.policyResults.map(\.result) == [.unspecified, .recoverableTrustFailure])
            #expect(report.policyResults[1].checks[0] == [.sslHostname])
            #expect(report.error?.check == .sslHostname)
            #expect(report.policy == .sslServer(host: "other.example"))
        }
    }

    @Test("the overall verdict holds every policy's failures, not only those of the policy that names the error")
    func overallSeesEveryPolicy() throws {
        let chain = try SecTrustFidelityTests.load("valid-chain-rsa/chain.pem")
        let root = try SecTrustFidelityTests.load("valid-chain-rsa/root-rsa.pem")
        let date = Date(timeIntervalSince1970: 1_906_502_400)
        let client = TrustPolicy.ssl(server: false, name: nil, profile: .apple)
        for backend in BackendRegistry.standard.allBackends() {
            for policies in [[.sslServer(host: "other.example"), client], [client, .sslServer(host: "other.example")]] {
                let report = TrustEvaluator(backend: backend).evaluate(
                    TrustEvaluation(certificates: chain, policies: policies, anchors: root, verifyDate: date))
                let byPolicy = report.policyResults.map { $0.checks[0] }
                #expect(byPolicy.allSatisfy { !$0.isEmpty }, "\(backend.name): each policy fails on the leaf: \(byPolicy)")
                #expect(Set(byPolicy[0]) != Set(byPolicy[1]), "\(backend.name): for different reasons")
                for (policy, checks) in zip(policies, byPolicy) {
                    #expect(checks.isSubset(of: report.checks[0]), "\(backend.name): \(policy)'s \(checks) in the overall \(report.checks[0])")
                }
            }
        }
    }
}
