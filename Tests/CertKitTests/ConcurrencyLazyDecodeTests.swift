@testable import CertKit
import Dispatch
import Synchronization
import Testing

/// The parts of a certificate made on first use (names' attributes, extensions, self-issued) and a report's
/// fingerprints are published once and read by any thread: threads that ask at once all get one value, equal to
/// what one thread gets alone (run under ThreadSanitizer by Scripts/test.sh).
@Suite struct ConcurrencyLazyDecodeTests {
    @Test("eight threads asking at once for a fresh certificate's lazy parts all get the same values")
    func lazyPartsUnderContention() throws {
        let der = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")[0].derEncoded
        let expected = try Certificate(derEncoded: der)
        let (names, extensions, selfIssued) = (expected.subject.relativeNames, expected.extensions, expected.isSelfIssued)
        for _ in 0..<50 {
            let certificate = try Certificate(derEncoded: der)
            let mismatches = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if certificate.subject.relativeNames != names || certificate.extensions != extensions
                    || certificate.isSelfIssued != selfIssued || certificate.issuer.description != expected.issuer.description {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
            #expect(mismatches.load(ordering: .relaxed) == 0)
        }
    }

    @Test("a published reference keeps the first instance stored, whichever thread stores it")
    func firstStoreWins() {
        final class Box: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        final class Holder: Sendable { let reference = PublishedReference<Box>() }
        for _ in 0..<200 {
            let holder = Holder()
            let seen = CacheLock<Set<Int>>([])  // not Mutex: ThreadSanitizer cannot see it (CacheLock)
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let stored = holder.reference.storeIfNil(Box(index))
                seen.withLock { _ = $0.insert(stored.value) }
            }
            #expect(seen.withLock { $0.count } == 1)
            #expect(holder.reference.load()?.value == seen.withLock { $0.first })
        }
    }
}
