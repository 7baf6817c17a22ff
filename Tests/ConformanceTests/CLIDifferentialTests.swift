import CertKit
import CertKitBackends
import CertKitCLI
import CertKitTestSupport
import Foundation
import Testing

/// `certkit evaluate --backend both`, driven through the CLI library entry point, finds both backends in
/// agreement for a handful of system-bundle certificates and exits as the library's result says.
@Suite struct CLIDifferentialTests {
    /// Every 25th system-bundle certificate (about six).
    static func sample() throws -> [(index: Int, certificate: Certificate, next: Certificate)] {
        let all = try DifferentialTests.systemCertificates()
        return stride(from: 0, to: all.count, by: 25).map { ($0, all[$0], all[($0 + 1) % all.count]) }
    }

    /// The exit code Docs/CLI.md, exit codes gives a result.
    static func exitCode(_ result: TrustResultType) -> Int32 {
        switch result {
        case .proceed, .unspecified: 0
        case .recoverableTrustFailure: 10
        case .fatalTrustFailure: 11
        case .deny: 12
        case .otherError, .invalid: 13
        }
    }

    @Test("certkit evaluate --backend both agrees and exits with the library's verdict")
    func cliBothBackendsAgree() throws {
        let temporary = try TemporaryDirectory(prefix: "certkit-differential")
        let directory = temporary.url
        var runs = 0
        var codes = Set<Int32>()
        for (index, certificate, next) in try Self.sample() {
            let leaf = directory.appendingPathComponent("c\(index).der")
            let other = directory.appendingPathComponent("n\(index).der")
            try Data(certificate.derEncoded).write(to: leaf)
            try Data(next.derEncoded).write(to: other)
            let middle = certificate.notBefore.addingTimeInterval(
                (certificate.notAfter.timeIntervalSince(certificate.notBefore) / 2).rounded(.down))
            let dates = [middle, certificate.notAfter.addingTimeInterval(1)]
            for (anchorFile, anchor) in [(leaf, certificate), (other, next)] {
                for date in dates {
                    for policyName in [PolicyName.basic.rawValue, PolicyName.sslServer.rawValue] {
                        let policy = try PolicyOptions(policy: policyName).trustPolicy()
                        let at = ISO8601DateFormatter().string(from: date)
                        let out = MemorySink()
                        let err = MemorySink()
                        let code = CertKitCommand.run(
                            arguments: ["evaluate", "--anchors", anchorFile.path, "--policy", policyName, "--at", at,
                                        "--backend", BackendRegistry.allBackendsChoice, leaf.path],
                            stdin: MemorySource(), stdout: out, stderr: err)
                        let library = DifferentialTests.evaluators[0].evaluator.evaluate(TrustEvaluation(
                            certificates: [certificate], policies: [policy], anchors: [anchor], verifyDate: date))
                        let what = "#\(index) \(certificate.subject) anchor=\(anchor.subject) at=\(at) \(policyName)"
                        #expect(code != 3, "\(what): backends disagree\n\(out.text)")
                        #expect(code == Self.exitCode(library.result), "\(what): exit \(code)\n\(out.text)\(err.text)")
                        #expect(out.text.contains("both backends agree"), "\(what)\n\(out.text)")
                        codes.insert(code)
                        runs += 1
                    }
                }
            }
        }
        print("CLIDifferentialTests: \(runs) runs of certkit evaluate --backend both, exit codes \(codes.sorted())")
        #expect(runs >= 40)
        #expect(codes.contains(0) && codes.contains(10))
    }
}
