/// Decodes the Extensions SEQUENCE: the raw list always; the known extensions into typed fields.
/// A known extension that does not decode is listed in `malformed`; a repeated OID in `duplicates`.
/// At most ``Limits/maxExtensionsPerCertificate`` extensions; a bound hit inside a known extension (a directory
/// name with too many attributes) fails the whole certificate rather than marking the extension malformed.
enum ExtensionsParser {
    static func parse(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> CertificateExtensions {
        var result = CertificateExtensions()
        var seen = OIDSet()
        var duplicated = OIDSet()
        var list = try node.children()
        // Most certificates carry up to eight extensions: one allocation, not three growths.
        result.all.reserveCapacity(8)
        while let element = try list.next() {
            let (oidNode, critical, value) = try frame(element, number: result.all.count + 1, limits: limits)
            let oid = try oidNode.objectIdentifier()
            if critical == false { result.criticalFalseEncoded.append(oid) }
            let ext = CertificateExtension(oid: oid, isCritical: critical == true, value: value.contentBytes)
            result.all.append(ext)
            guard seen.insert(oid) else {
                if duplicated.insert(oid) { result.duplicates.append(oid) }
                continue
            }
            do throws(CertificateDecodingError) {
                try decodeKnown(oid: oid, value: value, limits: limits, into: &result)
            } catch where error.code == .limitExceeded {
                throw error
            } catch {
                result.malformed.append(oid)
            }
            do throws(CertificateDecodingError) {
                try decodePolicyProcessing(oid: oid, value: value, into: &result)
            } catch {
                result.unparseable.append(oid)
            }
        }
        return consume result
    }

    /// Checks `node` for everything ``parse(_:limits:)`` refuses, without decoding: the bound on extensions and each
    /// Extension's framing. Returns true, at the first one, when an extension whose decoder reads directory names
    /// (subjectAltName, nameConstraints, cRLDistributionPoints, authorityInfoAccess) holds a byte 0xA4, the tag of
    /// a directoryName: only there can decoding reach a bound (``Limits/maxAttributesPerName``) and fail the
    /// certificate, so the caller must decode now. False means `parse` of the same bytes with the same limits
    /// cannot fail.
    static func checkFraming(_ node: DERNode, limits: Limits) throws(CertificateDecodingError) -> Bool {
        var count = 0
        var list = try node.children()
        while let element = try list.next() {
            count += 1
            let (oid, _, value) = try frame(element, number: count, limits: limits)
            if readsDirectoryNames(oid.contents), value.contents.contains(directoryNameTag) { return true }
        }
        return false
    }

    /// The `number`th Extension's framing, checked the one way for both passes: within the bound, a SEQUENCE of a
    /// valid OID, a DER BOOLEAN when present, an OCTET STRING, nothing after it. `critical` is nil when the flag is
    /// left out (DER's form of the DEFAULT FALSE) and false when `critical FALSE` is written out.
    private static func frame(
        _ element: DERNode, number: Int, limits: Limits
    ) throws(CertificateDecodingError) -> (oid: DERNode, critical: Bool?, value: DERNode) {
        guard number <= limits.maxExtensionsPerCertificate else {
            throw .limit("more than \(limits.maxExtensionsPerCertificate) extensions", "maxExtensionsPerCertificate")
        }
        guard element.tag == DERTag.sequence else {
            throw CertificateDecodingError(.malformedDER, "Extension: expected SEQUENCE, found \(DERTag.describe(element.tag))")
        }
        var fields = try element.children()
        let oid = try fields.readObjectIdentifier("extnID")
        var critical: Bool?
        if let flag = try fields.readIfPresent(DERTag.boolean) { critical = try flag.boolean() }
        let value = try fields.read(DERTag.octetString, "extnValue")
        try fields.expectEnd("extnValue")
        return (oid, critical, value)
    }

    /// The tag of a GeneralName's directoryName ([4], constructed).
    private static let directoryNameTag: UInt8 = 0xA4
    /// The encoded authorityInfoAccess OID (1.3.6.1.5.5.7.1.1).
    private static let authorityInfoAccessOID: [UInt8] = [0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01]

    /// True for the extensions whose decoders read GeneralNames with limits: subjectAltName (2.5.29.17, 55 1D 11),
    /// nameConstraints (2.5.29.30, 55 1D 1E), cRLDistributionPoints (2.5.29.31, 55 1D 1F) and authorityInfoAccess.
    private static func readsDirectoryNames(_ oid: UnsafeBufferPointer<UInt8>) -> Bool {
        if oid.count == 3 { return oid[0] == 0x55 && oid[1] == 0x1D && (oid[2] == 0x11 || oid[2] == 0x1E || oid[2] == 0x1F) }
        return authorityInfoAccessOID.elementsEqual(oid)
    }

    /// policyConstraints, policyMappings and inhibitAnyPolicy: not "understood" (their critical form is
    /// tolerated, see ExtensionIntegrityCheck), decoded for certificate-policy processing (RFC 5280 §6.1).
    private static func decodePolicyProcessing(
        oid: String, value: DERNode, into result: inout CertificateExtensions
    ) throws(CertificateDecodingError) {
        guard oid == ExtensionOID.policyConstraints || oid == ExtensionOID.inhibitAnyPolicy
            || oid == ExtensionOID.policyMappings
        else { return }
        var outer = try value.encapsulated()
        guard let node = try outer.next() else { throw CertificateDecodingError(.malformedDER, "empty extension") }
        try outer.expectEnd("extension value")
        if oid == ExtensionOID.inhibitAnyPolicy {
            guard node.tag == DERTag.integer else { throw CertificateDecodingError(.malformedDER, "inhibitAnyPolicy is not an INTEGER") }
            result.inhibitAnyPolicy = try node.smallInteger()
        } else if oid == ExtensionOID.policyMappings {
            result.policyMappings = try ExtensionDecoders.policyMappings(node)
        } else {
            result.policyConstraints = try ExtensionDecoders.policyConstraints(node)
        }
    }

    private static func decodeKnown(
        oid: String, value: DERNode, limits: Limits, into result: inout CertificateExtensions
    ) throws(CertificateDecodingError) {
        guard ExtensionOID.understood.contains(oid) else { return }
        var outer = try value.encapsulated()
        guard let node = try outer.next() else { throw CertificateDecodingError(.malformedDER, "empty extension") }
        try outer.expectEnd("extension value")
        switch oid {
        case ExtensionOID.basicConstraints: result.basicConstraints = try ExtensionDecoders.basicConstraints(node)
        case ExtensionOID.keyUsage: result.keyUsage = try ExtensionDecoders.keyUsage(node)
        case ExtensionOID.extendedKeyUsage: result.extendedKeyUsage = try ExtensionDecoders.oidSequence(node)
        case ExtensionOID.subjectAltName: result.subjectAlternativeNames = try ExtensionDecoders.generalNames(node, limits: limits)
        case ExtensionOID.nameConstraints: result.nameConstraints = try ExtensionDecoders.nameConstraints(node, limits: limits)
        case ExtensionOID.authorityKeyIdentifier:
            let identifier = try ExtensionDecoders.authorityKeyIdentifier(node)
            result.authorityKeyIdentifier = identifier.keyIdentifier
            result.authorityKeyIdentifierNamesIssuer = identifier.namesIssuer
        case ExtensionOID.subjectKeyIdentifier:
            guard node.tag == DERTag.octetString else { throw CertificateDecodingError(.malformedDER, "SKI is not an OCTET STRING") }
            result.subjectKeyIdentifier = node.contentBytes
        case ExtensionOID.crlDistributionPoints: result.crlDistributionPoints = try ExtensionDecoders.crlDistributionPoints(node, limits: limits)
        case ExtensionOID.authorityInfoAccess: result.authorityInfoAccess = try ExtensionDecoders.authorityInfoAccess(node, limits: limits)
        case ExtensionOID.certificatePolicies: result.certificatePolicies = try ExtensionDecoders.certificatePolicies(node)
        default: break
        }
    }
}

/// A set of OIDs that searches linearly while small (a handful of extensions: cheaper than hashing each OID)
/// and switches to hashing beyond ``linearLimit``, so that no number of extensions makes parsing quadratic.
struct OIDSet {
    static let linearLimit = 16
    private var small: [String] = []
    private var large: Set<String>?

    /// Inserts `oid`; false when it was already there.
    mutating func insert(_ oid: String) -> Bool {
        if large != nil { return large!.insert(oid).inserted }
        if small.contains(oid) { return false }
        if small.isEmpty { small.reserveCapacity(8) }
        small.append(oid)
        if small.count > Self.linearLimit { large = Set(small) }
        return true
    }
}
