@testable import CertKit
import Foundation
import Testing

@Suite("LRU cache and validity windows")
struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsed() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.set(1, for: "a")
        cache.set(2, for: "b")
        #expect(cache.value(for: "a") == 1) // a is now the most recent
        cache.set(3, for: "c")               // evicts b
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1)
        #expect(cache.value(for: "c") == 3)
        cache.set(4, for: "a")
        #expect(cache.count == 2)
        #expect(cache.value(for: "a") == 4)
    }

    @Test func zeroCapacityKeepsNothing() {
        var cache = LRUCache<Int, Int>(capacity: 0)
        cache.set(1, for: 1)
        #expect(cache.value(for: 1) == nil)
    }

    @Test func churnKeepsTheNewest() {
        var cache = LRUCache<Int, Int>(capacity: 16)
        for key in 0..<1_000 { cache.set(key * 2, for: key) }
        #expect(cache.count == 16)
        for key in 984..<1_000 { #expect(cache.value(for: key) == key * 2) }
        #expect(cache.value(for: 983) == nil)
    }

    @Test func windowStopsAtTheNearestBoundaries() throws {
        let chain = try ConcurrencyFixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try ConcurrencyFixtures.certificates("valid-chain-rsa/root-rsa.pem")
        let evaluation = ConcurrencyFixtures.evaluation(chain: chain, anchors: root)
        let window = ResultCacheValidityWindow(evaluation: evaluation, systemAnchors: [], date: ConcurrencyFixtures.verifyDate)
        let leaf = chain[0]
        #expect(window.contains(ConcurrencyFixtures.verifyDate))
        #expect(window.contains(leaf.notAfter.addingTimeInterval(-1)))
        #expect(!window.contains(leaf.notAfter)) // boundaries themselves are excluded (conservative)
        #expect(!window.contains(leaf.notAfter.addingTimeInterval(0.5)))
        #expect(window.contains(leaf.notBefore.addingTimeInterval(1.5)))
        #expect(!window.contains(leaf.notBefore))
    }

    @Test func handleCacheCountsAndBounds() throws {
        final class Handle: Sendable {
            let der: [UInt8]
            init(_ der: [UInt8]) { self.der = der }
        }
        let cache = CertificateHandleCache<Handle>(capacity: 2)
        let first = cache.handle(for: [1, 2, 3]) { Handle($0) }
        #expect(cache.handle(for: [1, 2, 3]) { Handle($0) } === first)
        _ = cache.handle(for: [4]) { Handle($0) }
        _ = cache.handle(for: [5]) { Handle($0) }
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 3)
        #expect(cache.statistics.entries == 2)
        #expect(cache.handle(for: [1, 2, 3]) { Handle($0) } !== first) // evicted

        let off = CertificateHandleCache<Handle>(capacity: 0)
        #expect(off.capacity == 0)
        let a = off.handle(for: [9]) { Handle($0) }
        #expect(off.handle(for: [9]) { Handle($0) } !== a)
    }
}
