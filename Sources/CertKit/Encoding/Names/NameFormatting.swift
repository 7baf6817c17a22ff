/// RFC 4514 rendering and RFC 5280 §7.1 comparison of distinguished names.
enum NameFormatting {
    /// The RFC 4514 string: most specific RDN first, `+` inside multi-valued RDNs (attributes also in reverse
    /// encoding order, as OpenSSL's `-nameopt RFC2253` prints them), OpenSSL short names,
    /// and `OID=#hex` (the value's DER) for attribute types without a short name.
    static func rfc4514(_ name: DistinguishedName) -> String {
        // The attribute values' DER is needed only for types without a short name: the name is re-read then.
        let relativeNames = name.relativeNames
        // One attribute of a known type (a leaf's lone CN): its text, without the lists the general case joins.
        if relativeNames.count == 1, relativeNames[0].count == 1,
           let short = AttributeNames.shortNames[relativeNames[0][0].oid] {
            return short + "=" + valueText(relativeNames[0][0])
        }
        var raw: [[[UInt8]]]??
        var rdnTexts: [String] = []
        for (rdnIndex, rdn) in relativeNames.enumerated() {
            var parts: [String] = []
            for (attributeIndex, attribute) in rdn.enumerated() {
                if let short = AttributeNames.shortNames[attribute.oid] {
                    parts.append(short + "=" + valueText(attribute))
                } else {
                    if raw == nil { raw = .some(rawValues(name)) }
                    let encoded = raw!.flatMap { $0.indices.contains(rdnIndex) && $0[rdnIndex].indices.contains(attributeIndex)
                        ? $0[rdnIndex][attributeIndex] : nil }
                    parts.append(attribute.oid + "=#" + Hex.encode(encoded ?? Array(attribute.value.utf8)))
                }
            }
            rdnTexts.append(parts.reversed().joined(separator: "+"))
        }
        return rdnTexts.reversed().joined(separator: ",")
    }

    /// RFC 4514 §2.4 escaping: `"+,;<>\` anywhere, `#` and space at the start, space at the end, and every
    /// scalar that `DisplayText/needsEscaping(_:)` (controls, bidi and other format characters) as hex pairs
    /// of its UTF-8 bytes (`\1B`, `\C2\9B`, `\E2\80\AE`), so the string is safe to print and still RFC 4514.
    /// The text of a value of a type with a short name: a `#` hex dump of a non-string value as it is, else escaped.
    private static func valueText(_ attribute: DistinguishedName.Attribute) -> String {
        let isHexDump = attribute.value.hasPrefix("#") && !DirectoryString.stringTags.contains(attribute.valueTag)
            && attribute.value.utf8.dropFirst().allSatisfy { Character(Unicode.Scalar($0)).isHexDigit }
        return isHexDump ? attribute.value : escape(attribute.value)
    }

    static func escape(_ value: String) -> String {
        // Printable ASCII with nothing to escape (nearly every real value) is returned as it is.
        let utf8 = value.utf8
        if let first = utf8.first, let last = utf8.last, first != UInt8(ascii: "#"), first != 0x20, last != 0x20,
            utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && !Self.isSpecial($0) })
        {
            return value
        }
        let scalars = Array(value.unicodeScalars)
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"", "+", ",", ";", "<", ">", "\\":
                out.append("\\")
                out.unicodeScalars.append(scalar)
            case "#" where index == 0:
                out.append("\\#")
            case " " where index == 0 || index == scalars.count - 1:
                out.append("\\ ")
            default:
                if DisplayText.needsEscaping(scalar) {
                    for byte in String(scalar).utf8 { out.append("\\" + Hex.encode([byte]).uppercased()) }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `"+,;<>\`: escaped wherever they are.
    private static func isSpecial(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x22, 0x2B, 0x2C, 0x3B, 0x3C, 0x3E, 0x5C: true
        default: false
        }
    }

    /// The DER of each attribute value, by RDN and attribute, or nil if the name does not re-parse.
    private static func rawValues(_ name: DistinguishedName) -> [[[UInt8]]]? {
        do {
            return try DERReader.read(name.derEncoded) { top throws(CertificateDecodingError) -> [[[UInt8]]]? in
                var result: [[[UInt8]]] = []
                var rdns = try top.read(DERTag.sequence, "Name").children()
                while let rdn = try rdns.next() {
                    var members = try rdn.children()
                    var values: [[UInt8]] = []
                    while let member = try members.next() {
                        var pair = try member.children()
                        _ = try pair.next()
                        guard let value = try pair.next() else { return nil }
                        values.append(value.encoded)
                    }
                    result.append(values)
                }
                return result
            }
        } catch {
            return nil
        }
    }

    /// RFC 5280 §7.1: byte-equal DER, or the same RDN structure with each attribute equal: same type, and
    /// PrintableString/UTF8String values equal after trimming, folding internal whitespace and case.
    ///
    /// Each attribute is folded once into a ``FoldedAttribute``; a multi-valued RDN compares as a sorted list, so
    /// a comparison costs n·log n in the number of attributes (not n² folds).
    static func namesMatch(_ a: DistinguishedName, _ b: DistinguishedName) -> Bool {
        if a.derEncoded == b.derEncoded { return true }
        guard a.relativeNames.count == b.relativeNames.count else { return false }
        for (left, right) in zip(a.relativeNames, b.relativeNames) {
            guard left.count == right.count else { return false }
            if left.count == 1 {
                guard FoldedAttribute(left[0]) == FoldedAttribute(right[0]) else { return false }
            } else if foldedRDN(left) != foldedRDN(right) {
                return false
            }
        }
        return true
    }

    /// The folded attributes of one RDN, sorted: two RDNs match exactly when these lists are equal.
    static func foldedRDN(_ rdn: [DistinguishedName.Attribute]) -> [FoldedAttribute] {
        rdn.count == 1 ? [FoldedAttribute(rdn[0])] : rdn.map(FoldedAttribute.init).sorted()
    }

    /// Trims, collapses internal whitespace runs to one space, and lowercases. ASCII text (nearly every real
    /// name) is folded byte by byte; other text with Unicode's whitespace and lowercase mapping.
    static func fold(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        var pendingSpace = false
        for byte in value.utf8 {
            guard byte < 0x80 else {
                return value.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").lowercased()
            }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                pendingSpace = !bytes.isEmpty
                continue
            }
            if pendingSpace {
                bytes.append(0x20)
                pendingSpace = false
            }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One attribute as RFC 5280 §7.1 compares it: the type, and either the folded text (PrintableString and
/// UTF8String compare to each other after folding) or the exact tag and value.
struct FoldedAttribute: Hashable, Comparable, Sendable {
    let oid: String
    /// 0 for the folded string types, else the value's tag.
    let tagClass: UInt8
    let value: String

    private static let foldedTags: Set<UInt8> = [DERTag.printableString, DERTag.utf8String]

    init(_ attribute: DistinguishedName.Attribute) {
        oid = attribute.oid
        if Self.foldedTags.contains(attribute.valueTag) {
            tagClass = 0
            value = NameFormatting.fold(attribute.value)
        } else {
            tagClass = attribute.valueTag
            value = attribute.value
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.oid, lhs.tagClass, lhs.value) < (rhs.oid, rhs.tagClass, rhs.value)
    }
}

/// A name reduced to what RFC 5280 §7.1 compares (every RDN as its sorted folded attributes): two names match
/// exactly when their keys are equal, so issuers can be looked up by name in a dictionary.
struct FoldedNameKey: Hashable, Sendable {
    let rdns: [[FoldedAttribute]]

    init(_ name: DistinguishedName) { rdns = name.relativeNames.map(NameFormatting.foldedRDN) }
}
