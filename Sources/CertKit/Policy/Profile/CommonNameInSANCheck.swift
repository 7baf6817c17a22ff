/// `SubjectCommonName` (`TrustRules/commonNameInSAN`, webpki): every subject commonName of the (issued) leaf
/// is one of its subjectAltNames, byte for byte in canonical form (CA/B BR §7.1.4.3): the text of an iPAddress
/// entry (IPv4 dotted quad without leading zeros, IPv6 in RFC 5952 form), or a dNSName compared
/// case-insensitively as ASCII (so a U-label commonName never matches its A-label).
package struct CommonNameInSANCheck: PathCheck {
    package init() {}

    /// True when `commonName` is the canonical text of one of `names`.
    package static func isListed(_ commonName: String, in names: [GeneralName]) -> Bool {
        names.contains { name in
            switch name {
            case .ipAddress(let bytes): return (bytes.count == 4 || bytes.count == 16) && commonName == IPAddressFormatting.string(bytes)
            case .dnsName(let host): return commonName.utf8.allSatisfy { $0 < 0x80 } && commonName.lowercased() == host.lowercased()
            default: return false
            }
        }
    }

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.commonNameInSAN), context.leafIsIssued, let leaf = context.certificates.first
        else { return }
        let names = leaf.extensions.subjectAlternativeNames ?? []
        for commonName in leaf.subject.attributes(oid: "2.5.4.3") where !Self.isListed(commonName, in: names) {
            findings.record(TrustRules.commonNameInSAN, at: 0, note: "commonName \(commonName) is not a subjectAltName")
            return
        }
    }
}
