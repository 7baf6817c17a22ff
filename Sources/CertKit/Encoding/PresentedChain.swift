/// The chain a TLS peer presented, decoded in one place: ``ServerTrust/evaluate(presentedDER:host:)``,
/// ``ClientTrust/evaluate(presentedDER:)`` and `certkit connect` decode with ``decodeSkipping(_:source:)`` (only
/// the leaf must decode); `TLSHandshakeCapture.certificates()` with ``decode(_:)`` (every certificate).
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

    /// The name of a presented chain as a ``SkippedCertificate/source``.
    package static let source = "the server's chain"

    /// Decodes the DER certificates a TLS library captured, keeping the peer's order (leaf first). Only the leaf
    /// must decode: a later certificate that does not is left out and listed (it could only have been an issuer
    /// candidate, and one fewer never makes a verdict more trusting).
    /// - Parameter source: the chain's name in the skipped list.
    /// - Throws: a ``DecodingFailure`` when the leaf does not decode.
    package static func decodeSkipping(
        _ chain: [[UInt8]], source: String = PresentedChain.source
    ) throws(DecodingFailure) -> (certificates: [Certificate], skipped: [SkippedCertificate]) {
        var certificates: [Certificate] = []
        var skipped: [SkippedCertificate] = []
        certificates.reserveCapacity(chain.count)
        for (index, der) in chain.enumerated() {
            do {
                certificates.append(try Certificate(derEncoded: der))
            } catch {
                guard index > 0 else { throw DecodingFailure(index: index, reason: error.message, decoded: []) }
                skipped.append(SkippedCertificate(source: source, index: index, reason: error.message))
            }
        }
        return (certificates, skipped)
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
