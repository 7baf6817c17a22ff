import Foundation

/// Decodes a CertificateList (RFC 5280 §5.1): the signed part, issuer, update times, revoked serials, the CRL's
/// AKI and cRLNumber, and which critical extensions certkit does not implement.
enum CRLParser {
    /// CRL extensions certkit understands: AKI, issuerAltName, cRLNumber, freshestCRL, authorityInfoAccess.
    static let understoodCRLExtensions: Set<String> = ["2.5.29.35", "2.5.29.18", "2.5.29.20", "2.5.29.46", "1.3.6.1.5.5.7.1.1"]
    /// Entry extensions certkit understands: reasonCode, invalidityDate.
    static let understoodEntryExtensions: Set<String> = ["2.5.29.21", "2.5.29.24"]

    static func parse(_ der: [UInt8], limits: Limits) throws(CertificateDecodingError) -> CertificateRevocationList {
        guard der.count <= limits.maxInputBytes else {
            throw .limit("a CRL of \(der.count) bytes is larger than \(limits.maxInputBytes)", "maxInputBytes")
        }
        return try DERReader.read(der) { top throws(CertificateDecodingError) in try parse(&top, limits: limits) }
    }

    /// Parses the CRL `top` reads (all of the lent input).
    private static func parse(
        _ top: inout DERReader, limits: Limits
    ) throws(CertificateDecodingError) -> CertificateRevocationList {
        let list = try top.read(DERTag.sequence, "CertificateList SEQUENCE")
        try top.expectEnd("the CRL")
        let envelope = try SignedEnvelope(list, tbsName: "tbsCertList", prefix: "CRL ")
        let tbs = envelope.tbs
        var fields = try tbs.children()
        if let version = try fields.readIfPresent(DERTag.integer) {
            guard try version.smallInteger() <= 1 else {
                throw CertificateDecodingError(.invalidCertificate, "unsupported CRL version")
            }
        }
        let innerAlgorithm = try fields.read(DERTag.sequence, "tbsCertList signature")
        let issuer = try NameParser.parse(fields.read(DERTag.sequence, "CRL issuer"), limits: limits)
        guard let thisNode = try fields.next() else { throw CertificateDecodingError(.malformedDER, "missing thisUpdate") }
        let thisUpdate = try thisNode.time()
        var nextUpdate: Date?
        if let tag = fields.peekTag, tag == DERTag.utcTime || tag == DERTag.generalizedTime {
            nextUpdate = try fields.next()?.time()
        }
        var unsupported: [String] = []
        var seenUnsupported = OIDSet()  // entries may carry many distinct OIDs: no linear search per entry
        var revoked: Set<[UInt8]> = []
        if let entries = try fields.readIfPresent(DERTag.sequence) {
            revoked = try revokedSerials(entries, limits: limits, unsupported: &unsupported, seen: &seenUnsupported)
        }
        var extensions = CRLExtensionSummary()
        if let explicitExtensions = try fields.readIfPresent(DERTag.contextConstructed(0)) {
            extensions = try crlExtensions(
                explicitExtensions, limits: limits, unsupported: &unsupported, seen: &seenUnsupported)
        }
        try fields.expectEnd("tbsCertList")
        return CertificateRevocationList(
            derEncoded: list.encoded, tbsBytes: tbs.encoded, signatureAlgorithm: envelope.signatureAlgorithm,
            signatureBytes: Array(envelope.signature.bytes),
            tbsSignatureAlgorithmMatches: envelope.matches(innerAlgorithm: innerAlgorithm),
            issuer: issuer, thisUpdate: thisUpdate, nextUpdate: nextUpdate, revokedSerialNumbers: revoked,
            authorityKeyIdentifier: extensions.authorityKeyIdentifier, hasCRLNumber: extensions.hasCRLNumber,
            isCRLNumberCritical: extensions.isCRLNumberCritical, unsupportedCriticalExtensions: unsupported)
    }

    /// The serial numbers of the revokedCertificates SEQUENCE `entries`, counted by their headers first so that a
    /// CRL over ``Limits/maxCRLEntries`` is refused before any entry is decoded; each entry's critical extensions
    /// that certkit does not implement are appended to `unsupported` (once per OID, `seen`).
    private static func revokedSerials(
        _ entries: DERNode, limits: Limits, unsupported: inout [String], seen: inout OIDSet
    ) throws(CertificateDecodingError) -> Set<[UInt8]> {
        var counter = try entries.children()
        var count = 0
        while count <= limits.maxCRLEntries, (try? counter.next()) != nil { count += 1 }
        guard count <= limits.maxCRLEntries else {
            throw .limit("the CRL has more than \(limits.maxCRLEntries) entries", "maxCRLEntries")
        }
        var revoked: Set<[UInt8]> = []
        revoked.reserveCapacity(count)
        var list = try entries.children()
        while let entry = try list.next() {
            guard entry.tag == DERTag.sequence else { throw CertificateDecodingError(.malformedDER, "revoked entry is not a SEQUENCE") }
            var entryFields = try entry.children()
            revoked.insert(try entryFields.read(DERTag.integer, "userCertificate").integerBytes())
            guard let date = try entryFields.next() else { throw CertificateDecodingError(.malformedDER, "missing revocationDate") }
            _ = try date.time()
            if let entryExtensions = try entryFields.readIfPresent(DERTag.sequence) {
                for (oid, critical) in try extensionHeaders(entryExtensions)
                where critical && !understoodEntryExtensions.contains(oid) && seen.insert(oid) {
                    unsupported.append(oid)
                }
            }
            try entryFields.expectEnd("revoked entry")
        }
        return revoked
    }

    /// The revocationDate and reasonCode (when present) of the entry for `serial` in the CRL `der` (already
    /// decoded once, so its bounds held); nil when it lists no such serial or does not decode.
    static func entry(of serial: [UInt8], in der: [UInt8]) -> (date: Date, reason: Int?)? {
        try? DERReader.read(der) { (top) throws(CertificateDecodingError) -> (date: Date, reason: Int?)? in
            var list = try top.read(DERTag.sequence, "CertificateList").children()
            var fields = try list.read(DERTag.sequence, "tbsCertList").children()
            _ = try fields.readIfPresent(DERTag.integer)
            _ = try fields.read(DERTag.sequence, "signature")
            _ = try fields.read(DERTag.sequence, "issuer")
            _ = try fields.next()
            if let tag = fields.peekTag, tag == DERTag.utcTime || tag == DERTag.generalizedTime { _ = try fields.next() }
            guard let entries = try fields.readIfPresent(DERTag.sequence) else { return nil }
            var revoked = try entries.children()
            while let entry = try revoked.next() {
                var entryFields = try entry.children()
                guard try entryFields.read(DERTag.integer, "userCertificate").integerBytes() == serial,
                      let dateNode = try entryFields.next()
                else { continue }
                let date = try dateNode.time()
                var reason: Int?
                if let entryExtensions = try entryFields.readIfPresent(DERTag.sequence) {
                    var extensionList = try entryExtensions.children()
                    while let element = try extensionList.next() {
                        var parts = try element.children()
                        guard try parts.read(DERTag.objectIdentifier, "extnID").objectIdentifier() == "2.5.29.21" else { continue }
                        _ = try parts.readIfPresent(DERTag.boolean)
                        var value = try parts.read(DERTag.octetString, "extnValue").encapsulated()
                        reason = try value.read(DERTag.enumerated, "reasonCode").smallInteger()
                    }
                }
                return (date, reason)
            }
            return nil
        }
    }

    /// What the CRL's own extensions say.
    private struct CRLExtensionSummary {
        var authorityKeyIdentifier: [UInt8]?
        var hasCRLNumber = false
        var isCRLNumberCritical = false
    }

    /// Reads the `[0] EXPLICIT crlExtensions`: the AKI, whether a cRLNumber is present and critical, and the
    /// critical extensions certkit does not implement (appended to `unsupported`, once per OID, `seen`).
    private static func crlExtensions(
        _ explicitExtensions: DERNode, limits: Limits, unsupported: inout [String], seen: inout OIDSet
    ) throws(CertificateDecodingError) -> CRLExtensionSummary {
        var inner = try explicitExtensions.children()
        let sequence = try inner.read(DERTag.sequence, "crlExtensions")
        try inner.expectEnd("crlExtensions")
        var summary = CRLExtensionSummary()
        summary.authorityKeyIdentifier = try ExtensionsParser.parse(sequence, limits: limits).authorityKeyIdentifier
        for (oid, critical) in try extensionHeaders(sequence) {
            if oid == "2.5.29.20" {
                summary.hasCRLNumber = true
                summary.isCRLNumberCritical = critical
            }
            if critical && !understoodCRLExtensions.contains(oid) && seen.insert(oid) { unsupported.append(oid) }
        }
        return summary
    }

    /// The OID and criticality of each Extension in an Extensions SEQUENCE (CRLs and OCSP responses).
    static func extensionHeaders(_ node: DERNode) throws(CertificateDecodingError) -> [(String, Bool)] {
        var headers: [(String, Bool)] = []
        var list = try node.children()
        while let element = try list.next() {
            var fields = try element.children()
            let oid = try fields.read(DERTag.objectIdentifier, "extnID").objectIdentifier()
            var critical = false
            if let flag = try fields.readIfPresent(DERTag.boolean) { critical = try flag.boolean() }
            headers.append((oid, critical))
        }
        return headers
    }
}
