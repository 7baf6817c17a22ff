/// A certificate of the pool (a presented certificate after the leaf, or an extra intermediate) that does not
/// decode, and was left out of the evaluation instead of aborting it.
///
/// Leaving it out is safe: a certificate the core cannot read can only be an issuer candidate, and a candidate
/// fewer can never make a verdict more trusting. The leaf must always decode. A skipped certificate still counts
/// toward ``Limits/maxPoolCertificates``, so a flood of garbage cannot get round the pool's bound.
public struct SkippedCertificate: Sendable, Hashable, CustomStringConvertible {
    /// Where it came from: a file name, `the server's chain`, a batch line's `chain[1]`.
    public var source: String
    /// Its position among the certificates of ``source``, from 0 (in a presented chain 0 is the leaf, so a
    /// skipped one is at 1 or later).
    public var index: Int
    /// Why it does not decode (the decoder's message, one line).
    public var reason: String

    /// Creates a record.
    package init(source: String, index: Int, reason: String) {
        self.source = source
        self.index = index
        self.reason = reason
    }

    /// `certificate 2 of intermediates.pem does not decode (left out of the pool): …`.
    public var description: String {
        "certificate \(index) of \(source) does not decode (left out of the pool): \(reason)"
    }
}
