@testable import CertKit
import CertKitOpenSSL
import CertKitTestSupport
import Foundation
import Testing

@Suite("OpenSSLBackend: concurrency")
struct OpenSSLBackendConcurrencyTests {
    /// One prepared store, many threads, different dates and paths: every answer equals the serial one.
    @Test func concurrentVerificationsMatchSerialOnes() throws {
        let backend = OpenSSLBackend.shared
        let pki = try TestPKI.openSSLBackend.get()
        let store = try backend.prepareAnchors(["root", "root-expired", "root-pl0"].map(pki.certificate))
        let paths = try [
            ["leaf", "int", "root"], ["leaf-expired", "int", "root"], ["leaf-future", "int", "root-expired"],
            ["leaf-noca", "int-noca", "root"], ["leaf-pl", "int-pl", "root-pl0"],
        ].map { names in CandidatePath(certificates: try names.map(pki.certificate), endsAtAnchor: true) }
        let dates = [2019, 2024, 2030, 2036].map { Date(timeIntervalSince1970: Double($0 - 1970) * 365.25 * 86_400) }
        let jobs = paths.flatMap { path in dates.map { (path, $0) } }
        let serial = try jobs.map { try backend.verify($0.0, anchors: store, at: $0.1, crls: []) }

        let rounds = 8
        let results = CacheLock<[Result<PathFindings, BackendError>?]>(Array(repeating: nil, count: jobs.count * rounds))
        DispatchQueue.concurrentPerform(iterations: jobs.count * rounds) { iteration in
            let (path, date) = jobs[iteration % jobs.count]
            let result = Result { () throws(BackendError) in try backend.verify(path, anchors: store, at: date, crls: []) }
            results.withLock { $0[iteration] = result }
        }
        for (iteration, result) in results.withLock({ $0 }).enumerated() {
            #expect(try result?.get() == serial[iteration % jobs.count])
        }
        #expect(serial.contains { $0.checks.allSatisfy(\.isEmpty) })
        #expect(serial.contains { !$0.checks.allSatisfy(\.isEmpty) })
    }
}
