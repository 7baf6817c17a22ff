@testable import CertKit
@testable import CertKitGnuTLS
import Dispatch
import Foundation
import Testing

/// One prepared store shared by many threads verifying at different dates at once (run under
/// `swift test --sanitize=thread` too): GnuTLS's process-wide time function must give each thread its own date.
@Suite struct GnuTLSBackendConcurrencyTests {
    typealias F = GnuTLSFixtures

    /// Dates at which the valid RSA chain gives different answers: fine, all expired, none yet valid, and
    /// (expired-leaf fixture) only the leaf expired.
    static let dates: [Date] = [
        F.verifyDate,
        Date(timeIntervalSince1970: 8_000_000_000),  // 2223: everything expired
        Date(timeIntervalSince1970: 0),  // 1970: nothing valid yet
        F.verifyDate.addingTimeInterval(-86_400 * 365),
    ]

    @Test func threadsSeeTheirOwnVerificationTime() {
        let seen = CacheLock<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let date = Date(timeIntervalSince1970: Double(1_000_000_000 + index * 1_000))
            for _ in 0..<200 {
                let now = GnuTLSLibrary.withVerifyTime(date) { GnuTLSLibrary.currentTime }
                seen.withLock { $0[index] = now }
                if now != 1_000_000_000 + index * 1_000 { seen.withLock { $0[-1 - index] = now } }
            }
        }
        let result = seen.withLock { $0 }
        #expect(result.keys.filter { $0 < 0 }.isEmpty, "a thread saw another thread's date: \(result)")
        #expect(result.count == 8)
        let real = Int(Date().timeIntervalSince1970)
        #expect(abs(GnuTLSLibrary.currentTime - real) < 120, "without an override GnuTLS sees the real clock")
    }

    @Test func concurrentVerificationMatchesSerial() throws {
        let backend = GnuTLSBackend()
        let scenarios = [
            ("valid-chain-rsa", "root-rsa.pem"), ("expired-leaf-rsa", "root-rsa.pem"),
            ("bad-signature-intermediate", "root-rsa.pem"),
        ]
        var jobs: [(CandidatePath, any PreparedAnchorStore, Date)] = []
        for (scenario, anchor) in scenarios {
            let (path, anchors) = try F.anchoredPath(scenario, anchor: anchor)
            let store = try backend.prepareAnchors(anchors)  // one store per anchor set, shared by every thread
            for date in Self.dates { jobs.append((path, store, date)) }
        }
        let serial = try jobs.map { try backend.verify($0.0, anchors: $0.1, at: $0.2, crls: []).checks }
        #expect(Set(serial.map { $0.description }).count >= 3, "the dates must give different answers")

        let mismatches = CacheLock<[String]>([])
        let sharedJobs = jobs
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<12 {
                let job = (thread + round) % sharedJobs.count
                let (path, store, date) = sharedJobs[job]
                do {
                    let checks = try backend.verify(path, anchors: store, at: date, crls: []).checks
                    if checks != serial[job] { mismatches.withLock { $0.append("job \(job): \(checks)") } }
                } catch {
                    mismatches.withLock { $0.append("job \(job): \(error)") }
                }
            }
        }
        #expect(mismatches.withLock { $0 }.isEmpty)
    }
}
