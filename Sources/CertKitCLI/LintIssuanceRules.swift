import CertKit
import Foundation

/// The issuance findings of `certkit lint`: what the CA/Browser Forum Baseline Requirements (and one root
/// program rule) ask of a certificate when it is issued. They are not a client's verdict — no client refuses a
/// chain for most of them — and are listed apart, on the chain as given (the presented certificates). Each rule
/// is documented in Docs/Profiles.md, "Issuance findings".
enum LintIssuanceRules {
    /// A rule: its id, the BR section it comes from, what it requires.
    struct Rule: Sendable {
        var id: String
        var reference: String
        var summary: String
    }

    static let validityPeriod = Rule(
        id: "br.validity-period", reference: "CA/B BR §6.3.2; ballot SC-081",
        summary: "a TLS server leaf's validity (notAfter − notBefore + 1 s) is at most the maximum for its notBefore: 825 days from 2018-03-01, 398 from 2020-09-01, 200 from 2026-03-15, 100 from 2027-03-15, 47 from 2029-03-15")
    static let sanPresent = Rule(
        id: "br.san-present", reference: "CA/B BR §7.1.2.7.12",
        summary: "the leaf carries subjectAltName with at least one dNSName or iPAddress")
    static let commonNameInSAN = Rule(
        id: "br.cn-in-san", reference: "CA/B BR §7.1.4.3",
        summary: "a leaf commonName, when present, is one of its subjectAltNames")
    static let keyStrength = Rule(
        id: "br.key-strength", reference: "CA/B BR §6.1.5; Mozilla Root Store Policy §5.1",
        summary: "every key is RSA of at least 2048 bits with a modulus a multiple of 8 bits, or ECDSA on P-256 or P-384")
    static let leafServerAuth = Rule(
        id: "br.leaf-server-auth", reference: "CA/B BR §7.1.2.7.10",
        summary: "the leaf carries extendedKeyUsage listing serverAuth")
    static let intermediateServerAuthOnly = Rule(
        id: "br.intermediate-server-auth-only",
        reference: "Chrome Root Program Policy 1.6 (dedicated TLS hierarchies, from 2026-06-15); CA/B BR §7.1.2.10.6",
        summary: "an intermediate (a CA certificate that is not self-signed) with notBefore on or after 2026-06-15 carries extendedKeyUsage with serverAuth and nothing else")
    static let aiaPresent = Rule(
        id: "br.aia-present", reference: "CA/B BR §7.1.2.7.7, §7.1.2.10.3",
        summary: "every certificate but a self-signed root carries authorityInfoAccess with a caIssuers or OCSP URL")
    static let revocationPointer = Rule(
        id: "br.revocation-pointer", reference: "CA/B BR §7.1.2.11.2, §4.9.7 (ballot SC-063)",
        summary: "every certificate but a self-signed root names where its revocation is published: a cRLDistributionPoints or an OCSP URL")
    static let serialEntropy = Rule(
        id: "br.serial-entropy", reference: "CA/B BR §7.1",
        summary: "the serial number's DER content is at least 9 octets (room for 64 bits of CSPRNG output in a positive INTEGER)")
    static let serialLength = Rule(
        id: "br.serial-length", reference: "CA/B BR §7.1; RFC 5280 §4.1.2.2",
        summary: "the serial number is positive, not zero, and at most 20 octets (a leading 0x00 sign octet not counted)")

    /// Every issuance rule, in report order.
    static let all: [Rule] = [
        validityPeriod, sanPresent, commonNameInSAN, leafServerAuth, keyStrength, intermediateServerAuthOnly,
        aiaPresent, revocationPointer, serialEntropy, serialLength,
    ]

    /// The maximum validity of a TLS server leaf whose notBefore is `issued`, in days; nil before 2018-03-01 (the
    /// older limits are not checked).
    static func maximumValidityDays(issuedAt issued: Date) -> Int? {
        let seconds = issued.timeIntervalSince1970
        if seconds >= 1_868_227_200 { return 47 }   // 2029-03-15
        if seconds >= 1_805_068_800 { return 100 }  // 2027-03-15
        if seconds >= 1_773_532_800 { return 200 }  // 2026-03-15
        if seconds >= 1_598_918_400 { return 398 }  // 2020-09-01
        if seconds >= 1_519_862_400 { return 825 }  // 2018-03-01
        return nil
    }

    /// From when an intermediate must be serverAuth-only.
    static let serverAuthOnlyFrom = Date(timeIntervalSince1970: 1_781_481_600)  // 2026-06-15

    /// The rule set that lint runs on the presented chain.
    static let ruleSet = LintRuleSet(name: "issuance") { input in findings(input.presented) }

    /// The issuance findings of `chain` (leaf first).
    static func findings(_ chain: [Certificate]) -> [LintFinding] {
        var found: [LintFinding] = []
        for (index, certificate) in chain.enumerated() {
            func add(_ rule: Rule, _ detail: String) {
                found.append(LintFinding(
                    rule: rule.id, certificateIndex: index, subject: certificate.subject.description, detail: detail))
            }
            let extensions = certificate.extensions
            let isCA = extensions.basicConstraints?.isCA == true
            let selfSigned = certificate.isSelfSigned
            if index == 0 && !isCA {
                leafFindings(certificate, add: add)
            }
            if let problem = keyProblem(certificate.publicKey.algorithm) { add(keyStrength, problem) }
            if index > 0, isCA, !selfSigned, certificate.notBefore >= serverAuthOnlyFrom {
                let usages = extensions.extendedKeyUsage
                if usages != [ExtendedKeyUsageOID.serverAuth] {
                    add(intermediateServerAuthOnly,
                        usages.map { "extendedKeyUsage is \(ekuNames($0))" } ?? "no extendedKeyUsage")
                }
            }
            if !selfSigned {
                let access = extensions.authorityInfoAccess
                let caIssuers = access.contains { $0.method == "1.3.6.1.5.5.7.48.2" }
                let ocsp = access.contains { $0.method == "1.3.6.1.5.5.7.48.1" }
                if !caIssuers && !ocsp { add(aiaPresent, "no authorityInfoAccess caIssuers or OCSP URL") }
                if extensions.crlDistributionPoints.isEmpty && !ocsp {
                    add(revocationPointer, "no cRLDistributionPoints and no OCSP URL")
                }
            }
            let serial = certificate.serialNumber
            if let problem = SerialNumberCheck.problem(serial) {
                add(serialLength, "the serial number is \(problem)")
            } else if serial.count < 9 {
                add(serialEntropy, "the serial number is \(serial.count) octet\(serial.count == 1 ? "" : "s")")
            }
        }
        return found
    }

    private static func leafFindings(_ leaf: Certificate, add: (Rule, String) -> Void) {
        let extensions = leaf.extensions
        if let days = maximumValidityDays(issuedAt: leaf.notBefore) {
            let seconds = leaf.notAfter.timeIntervalSince(leaf.notBefore) + 1
            if seconds > Double(days) * 86_400 {
                let validity = Int((seconds / 86_400).rounded(.up))
                add(validityPeriod,
                    "valid for \(validity) days, at most \(days) for a leaf issued on \(ISO8601Text.day(leaf.notBefore))")
            }
        }
        let names = extensions.subjectAlternativeNames ?? []
        let hostNames = names.filter {
            switch $0 {
            case .dnsName, .ipAddress: true
            default: false
            }
        }
        if hostNames.isEmpty { add(sanPresent, names.isEmpty ? "no subjectAltName" : "no dNSName or iPAddress in subjectAltName") }
        for commonName in leaf.subject.attributes(oid: "2.5.4.3")
        where !CommonNameInSANCheck.isListed(commonName, in: names) {
            add(commonNameInSAN, "commonName \(DisplayText.escaped(commonName)) is not a subjectAltName")
            break
        }
        if let usages = extensions.extendedKeyUsage {
            if !usages.contains(ExtendedKeyUsageOID.serverAuth) {
                add(leafServerAuth, "extendedKeyUsage is \(ekuNames(usages))")
            }
        } else {
            add(leafServerAuth, "no extendedKeyUsage")
        }
    }

    /// What the BRs refuse in a key, or nil.
    static func keyProblem(_ algorithm: PublicKeyInfo.Algorithm) -> String? {
        switch algorithm {
        case .rsa(let bits):
            if bits < 2048 { return "RSA \(bits) bits, under 2048" }
            if bits % 8 != 0 { return "RSA \(bits) bits, not a multiple of 8" }
            return nil
        case .ec(let curve, _):
            return ["prime256v1", "secp384r1"].contains(curve) ? nil : "ECDSA on \(curve), not P-256 or P-384"
        default:
            return "\(algorithm) is not RSA or ECDSA"
        }
    }

    private static func ekuNames(_ oids: [String]) -> String {
        oids.isEmpty ? "empty" : oids.map { OIDNames.extendedKeyUsage($0) }.joined(separator: ", ")
    }
}
