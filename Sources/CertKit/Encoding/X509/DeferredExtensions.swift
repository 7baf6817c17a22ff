import Synchronization

/// A certificate's extensions: decoded at decode time when decoding them could still fail the certificate, else on
/// first use (once per certificate, shared by its copies).
///
/// ``ExtensionsParser/checkFraming(_:limits:)`` runs at decode time and refuses everything `parse` would refuse
/// except a bound reached inside a known extension, which only a directoryName can reach; when one could be there,
/// the extensions are decoded at once, exactly as before. Otherwise nothing in them can fail any more, and the
/// decode (the same `parse`, on the same bytes, with the same limits) waits until something asks.
final class DeferredExtensions: Sendable {
    /// Where the Extensions SEQUENCE lies in the certificate's DER, and the limits it was checked with.
    private let source: (range: Range<Int>, limits: Limits)?
    /// Notes the certificate parser adds to `malformed` after the extensions' own (version rules).
    private let notes: [String]
    /// The decoded extensions, boxed: the lock hands out one reference, and a reader of one field
    /// (`certificate.extensions.subjectKeyIdentifier`) need not copy every field of the struct.
    private let state: Mutex<Decoded?>

    /// Decoded extensions, immutable.
    final class Decoded: Sendable {
        let value: CertificateExtensions
        init(_ value: CertificateExtensions) { self.value = value }
    }

    /// Extensions already decoded.
    init(_ ready: CertificateExtensions) {
        source = nil
        notes = []
        state = Mutex(Decoded(ready))
    }

    /// Extensions to decode from `range` of the certificate's DER on first use; `notes` are appended to `malformed`.
    init(range: Range<Int>, limits: Limits, notes: [String]) {
        source = (range, limits)
        self.notes = notes
        state = Mutex(nil)
    }

    /// True when the extensions are (or were) decoded on first use rather than at decode time.
    var isDeferred: Bool { source != nil }

    /// The extensions, decoded from `der` (the certificate's DER) on the first call when deferred.
    func value(decoding der: [UInt8]) -> Decoded {
        state.withLock { cached in
            if let cached { return cached }
            guard let source else { preconditionFailure("deferred extensions without a source") }
            var decoded: CertificateExtensions
            do throws(CertificateDecodingError) {
                decoded = try DERReader.read(der) { reader throws(CertificateDecodingError) in
                    try ExtensionsParser.parse(reader.node(at: source.range), limits: source.limits)
                }
            } catch {
                // checkFraming accepted these immutable bytes with these limits, and found no directoryName where a
                // bound could be reached: parse cannot fail on them.
                preconditionFailure("extensions that were checked no longer decode: \(error)")
            }
            decoded.malformed += notes
            let boxed = Decoded(decoded)
            cached = boxed
            return boxed
        }
    }
}
