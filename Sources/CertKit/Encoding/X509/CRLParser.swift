import Foundation

/// Decodes a CertificateList (RFC 5280 §5.1): issuer, update times, revoked serials and the CRL's AKI.
enum CRLParser {
    static func parse(_ der: [UInt8]) throws(CertificateDecodingError) -> CertificateRevocationList {
        var top = DERReader(der)
        let list = try top.read(DERTag.sequence, "CertificateList SEQUENCE")
        try top.expectEnd("the CRL")
        var outer = try list.children()
        let tbs = try outer.read(DERTag.sequence, "tbsCertList")
        _ = try outer.read(DERTag.sequence, "CRL signatureAlgorithm")
        _ = try outer.read(DERTag.bitString, "CRL signatureValue").bitString()
        try outer.expectEnd("CRL signatureValue")

        var fields = try tbs.children()
        if let version = try fields.readIfPresent(DERTag.integer) {
            guard try version.smallInteger() <= 1 else {
                throw CertificateDecodingError(.invalidCertificate, "unsupported CRL version")
            }
        }
        _ = try fields.read(DERTag.sequence, "tbsCertList signature")
        let issuer = try NameParser.parse(fields.read(DERTag.sequence, "CRL issuer"))
        guard let thisNode = try fields.next() else { throw CertificateDecodingError(.malformedDER, "missing thisUpdate") }
        let thisUpdate = try thisNode.time()
        var nextUpdate: Date?
        if let tag = fields.peekTag, tag == DERTag.utcTime || tag == DERTag.generalizedTime {
            nextUpdate = try fields.next()?.time()
        }
        var revoked: Set<[UInt8]> = []
        if let entries = try fields.readIfPresent(DERTag.sequence) {
            var list = try entries.children()
            while let entry = try list.next() {
                guard entry.tag == DERTag.sequence else { throw CertificateDecodingError(.malformedDER, "revoked entry is not a SEQUENCE") }
                var entryFields = try entry.children()
                revoked.insert(try entryFields.read(DERTag.integer, "userCertificate").integerBytes())
                guard let date = try entryFields.next() else { throw CertificateDecodingError(.malformedDER, "missing revocationDate") }
                _ = try date.time()
            }
        }
        var authorityKeyIdentifier: [UInt8]?
        if let explicitExtensions = try fields.readIfPresent(DERTag.contextConstructed(0)) {
            var inner = try explicitExtensions.children()
            let extensions = try ExtensionsParser.parse(inner.read(DERTag.sequence, "crlExtensions"))
            authorityKeyIdentifier = extensions.authorityKeyIdentifier
        }
        try fields.expectEnd("tbsCertList")
        return CertificateRevocationList(
            derEncoded: list.encoded, issuer: issuer, thisUpdate: thisUpdate, nextUpdate: nextUpdate,
            revokedSerialNumbers: revoked, authorityKeyIdentifier: authorityKeyIdentifier)
    }
}
