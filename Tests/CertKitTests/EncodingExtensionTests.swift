@testable import CertKit
import CertKitTestSupport
import Foundation
import Testing

/// Extension edge cases on hand-built encodings: duplicates, undecodable values, unusual GeneralNames.
@Suite struct EncodingExtensionTests {
    static let base = Result { () throws -> [UInt8] in
        let certificates = try EncodingTestSupport.systemCertificates()
        guard let first = certificates.first else { throw EncodingTestSupport.CommandError(description: "empty bundle") }
        return first.derEncoded
    }

    static let basicConstraintsOID: [UInt8] = [0x55, 0x1D, 0x13]
    static let subjectAltNameOID: [UInt8] = [0x55, 0x1D, 0x11]
    static let nameConstraintsOID: [UInt8] = [0x55, 0x1D, 0x1E]

    private func certificate(_ extensions: [[UInt8]]) throws -> Certificate {
        try Certificate(derEncoded: DERBuilder.replacingExtensions(of: Self.base.get(), with: extensions))
    }

    @Test func duplicatesAreRecorded() throws {
        let ca = DERBuilder.extension(Self.basicConstraintsOID, critical: true, DERBuilder.sequence([[0x01, 0x01, 0xFF]]))
        let notCA = DERBuilder.extension(Self.basicConstraintsOID, DERBuilder.sequence([]))
        let parsed = try certificate([ca, notCA])
        #expect(parsed.extensions.duplicates == [ExtensionOID.basicConstraints])
        #expect(parsed.extensions.all.count == 2)
        #expect(parsed.extensions.basicConstraints == BasicConstraints(isCA: true, pathLength: nil))
    }

    @Test func undecodableKnownExtensionIsMalformedNotFatal() throws {
        let broken = DERBuilder.extension(Self.basicConstraintsOID, critical: true, [0x02, 0x01, 0x05])
        let truncated = DERBuilder.extension(Self.subjectAltNameOID, [0x30, 0x05, 0x82, 0x01])
        let parsed = try certificate([broken, truncated])
        #expect(parsed.extensions.malformed == [ExtensionOID.basicConstraints, ExtensionOID.subjectAltName])
        #expect(parsed.extensions.basicConstraints == nil)
        #expect(parsed.extensions.subjectAlternativeNames == nil)
        #expect(parsed.extensions.unknownCritical.isEmpty)
    }

    @Test func unknownCriticalIsKept() throws {
        let unknown = DERBuilder.extension([0x2B, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x01], critical: true, [0x05, 0x00])
        let parsed = try certificate([unknown])
        #expect(parsed.extensions.unknownCritical.map(\.oid) == ["1.3.6.1.4.1.311.1"])
        #expect(parsed.extensions.unknownCritical.first?.value == [0x05, 0x00])
    }

    @Test func generalNameForms() throws {
        let dirName = DERBuilder.sequence([DERBuilder.set([DERBuilder.sequence([
            DERBuilder.tlv(0x06, [0x55, 0x04, 0x03]), DERBuilder.tlv(0x0C, Array("dir".utf8))])])])
        let san = DERBuilder.sequence([
            DERBuilder.tlv(0xA4, dirName),
            DERBuilder.tlv(0x88, [0x2A, 0x03]),
            DERBuilder.tlv(0xA0, DERBuilder.sequence([DERBuilder.tlv(0x06, [0x2A, 0x03]), DERBuilder.tlv(0xA0, [0x05, 0x00])])),
        ])
        let parsed = try certificate([DERBuilder.extension(Self.subjectAltNameOID, san)])
        let names = try #require(parsed.extensions.subjectAlternativeNames)
        #expect(names.count == 3)
        #expect(names.first?.description == "DirName:CN=dir")
        #expect(names[1] == .other(tag: 8, contents: [0x2A, 0x03]))
        if case .other(let tag, _) = names[2] { #expect(tag == 0) } else { Issue.record("expected otherName") }
    }

    @Test func nameConstraintIPMustCarryAMask() throws {
        let subtree = DERBuilder.sequence([DERBuilder.tlv(0x87, [10, 0, 0, 1])])
        let value = DERBuilder.sequence([DERBuilder.tlv(0xA0, subtree)])
        let parsed = try certificate([DERBuilder.extension(Self.nameConstraintsOID, critical: true, value)])
        #expect(parsed.extensions.malformed == [ExtensionOID.nameConstraints])
    }

    @Test func envelopeErrorsAreFatal() throws {
        let good = try Self.base.get()
        #expect(throws: CertificateDecodingError.self) { try Certificate(derEncoded: DERBuilder.sequence([good])) }
        #expect(throws: CertificateDecodingError.self) {
            try Certificate(derEncoded: DERBuilder.replacingExtensions(of: good, with: [[0x04, 0x00]]))
        }
        var badBoolean = DERBuilder.extension(Self.basicConstraintsOID, DERBuilder.sequence([]))
        badBoolean.insert(contentsOf: [0x01, 0x01, 0x01], at: 7)
        badBoolean[1] &+= 3
        #expect(throws: CertificateDecodingError.self) { try certificate([badBoolean]) }
    }

    @Test func rsassaPSSHashComesFromParameters() throws {
        let temporary = try TemporaryDirectory(prefix: "certkit-encoding")
        let directory = temporary.url
        let pem = directory.appendingPathComponent("pss.pem")
        try EncodingTestSupport.shell("openssl req -x509 -newkey rsa:2048 -nodes -keyout '\(directory.path)/k' -subj /CN=pss -sha384 -sigopt rsa_padding_mode:pss -out '\(pem.path)' 2>/dev/null")
        let parsed = try #require(try CertificateBundle.decode(EncodingTestSupport.read(pem)).certificates.first)
        #expect(parsed.signatureAlgorithm.oid == "1.2.840.113549.1.1.10")
        #expect(parsed.signatureAlgorithm.name == "rsassaPss")
        #expect(parsed.signatureAlgorithm.hash == .sha384)
    }

    /// policyMappings (RFC 5280 §4.2.1.5) decodes into pairs; a value that does not is UnparseableExtension (as
    /// policyConstraints and inhibitAnyPolicy), never MalformedExtension, and the certificate still decodes.
    @Test func policyMappingsDecode() throws {
        let oid: [UInt8] = [0x55, 0x1D, 0x21]
        let a = DERBuilder.tlv(0x06, [0x2A, 0x03])
        let b = DERBuilder.tlv(0x06, [0x2A, 0x04])
        let any = DERBuilder.tlv(0x06, [0x55, 0x1D, 0x20, 0x00])
        let parsed = try certificate([DERBuilder.extension(
            oid, critical: true, DERBuilder.sequence([DERBuilder.sequence([a, b]), DERBuilder.sequence([any, a])]))])
        #expect(parsed.extensions.policyMappings == [
            PolicyMapping(issuerDomainPolicy: "1.2.3", subjectDomainPolicy: "1.2.4"),
            PolicyMapping(issuerDomainPolicy: "2.5.29.32.0", subjectDomainPolicy: "1.2.3"),
        ])
        #expect(parsed.extensions.unparseable.isEmpty && parsed.extensions.malformed.isEmpty)
        for broken in [
            DERBuilder.sequence([]), DERBuilder.sequence([DERBuilder.sequence([a])]),
            DERBuilder.sequence([DERBuilder.sequence([a, b, b])]), DERBuilder.sequence([a, b]),
        ] {
            let bad = try certificate([DERBuilder.extension(oid, broken)])
            #expect(bad.extensions.policyMappings == nil)
            #expect(bad.extensions.unparseable == [ExtensionOID.policyMappings])
            #expect(bad.extensions.malformed.isEmpty)
        }
    }

    /// certificatePolicies keeps a repeated policy (the policy rules report it).
    @Test func certificatePoliciesKeepRepeats() throws {
        let info = DERBuilder.sequence([DERBuilder.tlv(0x06, [0x2A, 0x03])])
        let parsed = try certificate([DERBuilder.extension([0x55, 0x1D, 0x20], DERBuilder.sequence([info, info]))])
        #expect(parsed.extensions.certificatePolicies == ["1.2.3", "1.2.3"])
        #expect(PolicyConstraintsCheck.repeated(["1", "2", "1", "1", "2", "3"]) == ["1", "2"])
    }
}
