/// A certificate's extensions: decoded at decode time when decoding them could still fail the certificate, else on
/// first use (once per certificate, shared by its copies).
///
/// ``ExtensionsParser/checkFraming(_:limits:)`` runs at decode time and refuses everything `parse` would refuse
/// except a bound reached inside a known extension, which only a directoryName can reach; when one could be there,
/// the extensions are decoded at once, exactly as before. Otherwise nothing in them can fail any more, and the
/// decode (the same `parse`, on the same bytes, with the same limits) waits until something asks.
///
/// The result is published through a `PublishedReference` (acquire/release atomics, which ThreadSanitizer follows;
/// see `CacheLock` for why not `Mutex`): two threads that ask at once may both decode, with the same result, and
/// every caller gets the one stored first.
final class DeferredExtensions: Sendable {
    /// Where the Extensions SEQUENCE lies in the certificate's DER, and the limits it was checked with.
    private let source: (range: Range<Int>, limits: Limits)?
    /// Notes the certificate parser adds to `malformed` after the extensions' own (version rules).
    private let notes: [String]
    /// The decoded extensions, boxed: one reference per access, and a reader of one field
    /// (`certificate.extensions.subjectKeyIdentifier`) need not copy every field of the struct.
    private let decoded = PublishedReference<Decoded>()

    /// Decoded extensions, immutable.
    final class Decoded: Sendable {
        let value: CertificateExtensions
        init(_ value: CertificateExtensions) { self.value = value }
    }

    /// Extensions already decoded.
    init(_ ready: CertificateExtensions) {
        source = nil
        notes = []
        _ = decoded.storeIfNil(Decoded(ready))
    }

    /// Extensions to decode from `range` of the certificate's DER on first use; `notes` are appended to `malformed`.
    init(range: Range<Int>, limits: Limits, notes: [String]) {
        source = (range, limits)
        self.notes = notes
    }

    /// True when the extensions are (or were) decoded on first use rather than at decode time.
    var isDeferred: Bool { source != nil }

    /// The extensions, decoded from `der` (the certificate's DER) on the first call when deferred.
    func value(decoding der: [UInt8]) -> Decoded {
        if let known = decoded.load() { return known }
        guard let source else { preconditionFailure("deferred extensions without a source") }
        var made: CertificateExtensions
        do throws(CertificateDecodingError) {
            made = try DERReader.read(der) { reader throws(CertificateDecodingError) in
                try ExtensionsParser.parse(reader.node(at: source.range), limits: source.limits)
            }
        } catch {
            // checkFraming accepted these immutable bytes with these limits, and found no directoryName where a
            // bound could be reached: parse cannot fail on them.
            preconditionFailure("extensions that were checked no longer decode: \(error)")
        }
        made.malformed += notes
        return decoded.storeIfNil(Decoded(consume made))
    }
}

/// Reads of a certificate's decoded extensions straight from the shared box: `let extensions =
/// certificate.extensions` copies the whole struct (a reference count on every array it holds, and again to destroy
/// the copy), where a check reading a few fields needs none of that. Each read here loads one field.
@dynamicMemberLookup
struct ExtensionsView {
    let box: DeferredExtensions.Decoded

    subscript<Field>(dynamicMember field: KeyPath<CertificateExtensions, Field>) -> Field { box.value[keyPath: field] }

    /// ``CertificateExtensions/first(_:)``.
    func first(_ oid: String) -> CertificateExtension? { box.value.first(oid) }
}
