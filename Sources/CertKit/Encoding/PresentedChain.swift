/// The chain a TLS peer presented, decoded in one place: ``ServerTrust/evaluate(presentedDER:host:)`` and the
/// TLS chain fetchers of the backends (`TLSChainFetcher.fetchChain`) both decode with it.
package enum PresentedChain {
    /// A presented certificate that does not decode.
    package struct DecodingFailure: Error, Sendable, CustomStringConvertible {
        /// Its position in the presented chain (0 = the leaf).
        package let index: Int
        /// The decoder's reason.
        package let reason: String
        /// The certificates before it, decoded.
        package let decoded: [Certificate]

        /// `the server's certificate 1 cannot be decoded: …`.
        package var description: String { Self.message(index: index, reason: reason) }

        /// The one wording of this failure, for every caller that reports it.
        package static func message(index: Int, reason: String) -> String {
            "the server's certificate \(index) cannot be decoded: \(reason)"
        }
    }

    /// Decodes the DER certificates a TLS library captured, keeping the peer's order (leaf first).
    /// - Throws: a ``DecodingFailure`` for the first certificate that does not decode.
    package static func decode(_ chain: [[UInt8]]) throws(DecodingFailure) -> [Certificate] {
        var certificates: [Certificate] = []
        certificates.reserveCapacity(chain.count)
        for (index, der) in chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                throw DecodingFailure(index: index, reason: error.message, decoded: certificates)
            }
        }
        return certificates
    }
}
