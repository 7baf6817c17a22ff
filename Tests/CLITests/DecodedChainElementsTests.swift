import CertKit
@testable import CertKitCLI
import Foundation
import Testing

/// A batch decodes the chain elements after the first once: a line that repeats one gets the same certificates
/// and the same list of left-out blocks, named by its own position.
@Suite("batch: repeated chain elements decoded once")
struct DecodedChainElementsTests {
    static func request(_ elements: [String]) -> BatchRequest {
        BatchRequest(id: .null, members: ["chain": .array(elements.map(BatchJSON.string))])
    }

    @Test("the same certificates and skipped blocks, with and without the kept elements")
    func sameChain() throws {
        let chain = try sampleCertificates("server-chain.pem")
        let leaf = Data(chain[0].derEncoded).base64EncodedString()
        let intermediate = Data(chain[1].derEncoded).base64EncodedString()
        // PEM text with a block that does not decode: left out and listed.
        let withBadBlock = PEM.encode(chain[1].derEncoded) + "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n"
        let decoded = DecodedChainElements()
        for elements in [[leaf, intermediate], [leaf, intermediate], [leaf, withBadBlock], [leaf, leaf, withBadBlock]] {
            let plain = try Self.request(elements).chain(skipping: true)
            let kept = try Self.request(elements).chain(skipping: true, decoded: decoded)
            #expect(kept.certificates == plain.certificates)
            #expect(kept.skipped == plain.skipped)
            let again = try Self.request(elements).chain(skipping: true, decoded: decoded)
            #expect(again.certificates == plain.certificates && again.skipped == plain.skipped)
        }
        // The intermediate and the PEM element are kept; a leaf only when it comes after the first position.
        #expect(decoded.count == 3)
        let skipped = try Self.request([leaf, leaf, withBadBlock]).chain(skipping: true, decoded: decoded).skipped
        #expect(skipped.map(\.source) == ["chain[2]"])
    }

    @Test("at most the capacity is kept; elements over the size limit are not")
    func bounded() throws {
        let decoded = DecodedChainElements()
        let chain = try sampleCertificates("server-chain.pem")
        let bundle = try CertificateBundle.decode(chain[1].derEncoded)
        for index in 0..<DecodedChainElements.capacity {
            decoded.store(bundle, for: "element \(index)")
        }
        #expect(decoded.count == DecodedChainElements.capacity)
        #expect(decoded.bundle("element 0")?.certificates == [chain[1]])
        decoded.store(bundle, for: "one more")
        #expect(decoded.count == 1 && decoded.bundle("element 0") == nil && decoded.bundle("one more") != nil)
        let large = String(repeating: "A", count: DecodedChainElements.maxTextBytes + 1)
        decoded.store(bundle, for: large)
        #expect(decoded.bundle(large) == nil && decoded.count == 1)
    }
}
