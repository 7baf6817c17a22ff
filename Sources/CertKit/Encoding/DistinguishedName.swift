/// An X.501 name (issuer or subject) with its raw DER and decoded attributes.
///
/// A decoded name keeps its encoding and makes the attributes' text on first use of `relativeNames`, and its
/// RFC 4514 string on first use of ``description`` (each once per name, shared by its copies): equality, hashing
/// and the byte-equal issuer lookup never need them.
public struct DistinguishedName: Sendable, Hashable, CustomStringConvertible {
    /// One attribute of a relative distinguished name, e.g. `CN=leaf.example`.
    package struct Attribute: Sendable, Hashable {
        /// The dotted OID of the attribute type.
        package let oid: String
        /// The DER tag of the value (e.g. 0x0C UTF8String, 0x13 PrintableString).
        package let valueTag: UInt8
        /// The value decoded as text (for string types), or hex `#...` for others as RFC 4514 does.
        package let value: String

        /// Creates an attribute.
        package init(oid: String, valueTag: UInt8, value: String) {
            self.oid = oid
            self.valueTag = valueTag
            self.value = value
        }
    }

    /// The DER encoding of the whole Name (the SEQUENCE).
    public let derEncoded: [UInt8]
    /// The relative distinguished names in encoding order (most general first, as in the DER).
    package var relativeNames: [[Attribute]] { attributes.value(decoding: derEncoded) }

    /// True when the name has no relative names (`relativeNames.isEmpty`), without decoding its attributes: a
    /// name not decoded yet was accepted by the parser, so its SEQUENCE has no relative names exactly when its
    /// content is empty (a short-form length of 0); any other length form is decoded to be sure.
    var hasNoRelativeNames: Bool {
        if let known = attributes.known { return known.isEmpty }
        if derEncoded.count >= 2, derEncoded[1] < 0x80 { return derEncoded[1] == 0 }
        return relativeNames.isEmpty
    }

    private let attributes: DeferredAttributes

    /// Creates a name.
    package init(derEncoded: [UInt8], relativeNames: [[Attribute]]) {
        self.derEncoded = derEncoded
        self.attributes = DeferredAttributes(relativeNames)
    }

    /// A name whose encoding ``NameParser`` accepted; its attributes are decoded on first use.
    init(acceptedEncoding: [UInt8]) {
        self.derEncoded = acceptedEncoding
        self.attributes = DeferredAttributes(nil)
    }

    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool { lhs.derEncoded == rhs.derEncoded }
    public func hash(into hasher: inout Hasher) { hasher.combine(encoding: derEncoded) }

    /// The RFC 4514 string: most specific RDN first, e.g. `CN=leaf.example,O=Example`.
    public var description: String {
        if let known = attributes.text.load() { return known.value }
        return attributes.text.storeIfNil(DeferredAttributes.Text(NameFormatting.rfc4514(self))).value
    }

    /// The first common name, if any.
    public var commonName: String? { attributes(oid: "2.5.4.3").first }

    /// The email addresses in the name (PKCS#9 emailAddress).
    public var emailAddresses: [String] { attributes(oid: "1.2.840.113549.1.9.1") }

    /// All values of the attribute type `oid`, in encoding order.
    public func attributes(oid: String) -> [String] {
        relativeNames.flatMap { $0 }.filter { $0.oid == oid }.map(\.value)
    }

    /// Name comparison as RFC 5280 §7.1: byte-equal, or equal after case-insensitive, whitespace-folded
    /// comparison of PrintableString / UTF8String values, attribute by attribute.
    public func matches(_ other: DistinguishedName) -> Bool { NameFormatting.namesMatch(self, other) }
}

/// The attributes of one name and its RFC 4514 text, each made on first use and shared by the name's copies.
///
/// Published through a `PublishedReference` (acquire/release atomics, which ThreadSanitizer follows; see
/// `CacheLock` for why not `Mutex`): two threads that ask at once may both decode, the same walk on the same bytes
/// giving the same value, and every caller gets the one that was stored first.
private final class DeferredAttributes: Sendable {
    private final class Decoded: Sendable {
        let value: [[DistinguishedName.Attribute]]
        init(_ value: [[DistinguishedName.Attribute]]) { self.value = value }
    }

    final class Text: Sendable {
        let value: String
        init(_ value: String) { self.value = value }
    }

    private let decoded = PublishedReference<Decoded>()
    /// The name's RFC 4514 string (``DistinguishedName/description``), made from the attributes.
    let text = PublishedReference<Text>()

    init(_ ready: [[DistinguishedName.Attribute]]?) {
        if let ready { _ = decoded.storeIfNil(Decoded(ready)) }
    }

    /// The attributes, decoded from `der` (the encoding the parser accepted) on the first call.
    /// The attributes when already decoded (or given), else nil.
    var known: [[DistinguishedName.Attribute]]? { decoded.load()?.value }

    func value(decoding der: [UInt8]) -> [[DistinguishedName.Attribute]] {
        if let known = decoded.load() { return known.value }
        return decoded.storeIfNil(Decoded(NameParser.relativeNames(ofAccepted: der))).value
    }
}
