import CertKit
import CertKitBackends

/// One fuzz target: a way bytes enter certkit. Scripts/fuzz.sh selects one with CERTKIT_FUZZ_TARGET.
enum FuzzTarget: Hashable {
    /// PEM decoding (any labels, any text around) and re-encoding of what decodes; base64 and peer-name parsing.
    case pem
    /// Format detection and bundle decoding (PEM, DER, DER sequences, PKCS#7), then every derived field.
    case bundle
    /// One DER certificate, every derived field, its own name constraints applied to itself.
    case x509
    /// One DER CRL.
    case crl
    /// One DER OCSP response (and its BasicOCSPResponse, answers and certificates).
    case ocsp
    /// PKCS#7: the input as a ContentInfo, and the input as the certificates field of a SignedData envelope.
    case pkcs7
    /// Evaluation of a fuzzed chain with one backend of the registry (see ``ChainFuzzing``): `chain-openssl`,
    /// `chain-gnutls`.
    case chain(backend: String)

    /// Every target: the decoders, then a chain target per backend.
    static let all: [FuzzTarget] =
        [.pem, .bundle, .x509, .crl, .ocsp, .pkcs7] + BackendRegistry.standard.names.map { .chain(backend: $0) }

    /// The target's name for CERTKIT_FUZZ_TARGET and the corpus directory.
    var name: String {
        switch self {
        case .pem: "pem"
        case .bundle: "bundle"
        case .x509: "x509"
        case .crl: "crl"
        case .ocsp: "ocsp"
        case .pkcs7: "pkcs7"
        case .chain(let backend): "chain-" + backend
        }
    }

    /// The target called `name`, or nil.
    init?(name: String) {
        guard let target = Self.all.first(where: { $0.name == name }) else { return nil }
        self = target
    }

    func run(_ bytes: [UInt8]) {
        switch self {
        case .pem: Self.pem(bytes)
        case .bundle: Self.bundle(bytes)
        case .x509: if let certificate = try? Certificate(derEncoded: bytes) { Self.touch(certificate) }
        case .crl: Self.crl(bytes)
        case .ocsp: Self.ocsp(bytes)
        case .pkcs7: Self.pkcs7(bytes)
        case .chain(let backend): ChainFuzzing.run(bytes, backend: backend)
        }
    }

    static func pem(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = Base64.decode(text)
        if bytes.count <= 64 { _ = PeerName.parse(text).description }
        guard let blocks = try? PEM.decode(bytes) else { return }
        for block in blocks {
            let encoded = PEM.encode(block.bytes, label: block.label)
            // A label made of plain characters survives a round trip exactly.
            if block.label.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x20 || $0 == 0x23 }) {
                let again = try? PEM.decode(Array(encoded.utf8))
                precondition(again == [block], "PEM round trip changed a block")
            }
        }
    }

    static func bundle(_ bytes: [UInt8]) {
        guard let bundle = try? CertificateBundle.decode(bytes) else { return }
        _ = bundle.skippedBlocks.count + bundle.notes.count
        for certificate in bundle.certificates {
            touch(certificate)
            // What decoded re-decodes to the same certificate, as DER and as PEM.
            let again = try? CertificateBundle.decode(Array(PEM.encode(certificate.derEncoded).utf8)).certificates
            precondition(again == [certificate], "PEM re-encoding changed a certificate")
        }
    }

    static func crl(_ bytes: [UInt8]) {
        guard let crl = try? CertificateRevocationList(derEncoded: bytes) else { return }
        _ = crl.issuer.description
        _ = crl.revokedSerialNumbers.count
        _ = crl.unsupportedCriticalExtensions.count
    }

    static func ocsp(_ bytes: [UInt8]) {
        guard let response = try? OCSPResponse(derEncoded: bytes), let basic = response.basic else { return }
        _ = basic.responses.map(\.status)
        _ = basic.unsupportedCriticalExtensions.count
        basic.certificates.forEach(touch)
    }

    static func pkcs7(_ bytes: [UInt8]) {
        if let bundle = try? CertificateBundle.decode(bytes) { bundle.certificates.forEach(touch) }
        if let bundle = try? CertificateBundle.decode(DERWrapping.signedData(certificates: bytes)) {
            bundle.certificates.forEach(touch)
        }
    }

    /// Every derived value a command computes for a certificate.
    static func touch(_ certificate: Certificate) {
        _ = certificate.description
        _ = certificate.issuer.description
        _ = certificate.subject.commonName
        _ = certificate.subject.emailAddresses
        _ = certificate.isSelfIssued
        _ = certificate.isSelfSigned
        _ = certificate.hashValue
        _ = certificate.publicKey.algorithm
        _ = certificate.signatureAlgorithm.name
        let extensions = certificate.extensions
        _ = extensions.subjectAlternativeNames?.map(\.description)
        _ = extensions.unknownCritical.count
        if let constraints = extensions.nameConstraints {
            _ = constraints.permitted.map(\.description) + constraints.excluded.map(\.description)
            _ = NameConstraintsChecker.violations(of: constraints, certificate: certificate)
        }
        _ = certificate.subject.matches(certificate.issuer)
    }
}

/// DER envelopes built around fuzzed bytes.
enum DERWrapping {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var value = count
        while value > 0 {
            bytes.insert(UInt8(value & 0xFF), at: 0)
            value >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] { [tag] + length(contents.count) + contents }

    /// A ContentInfo holding a SignedData whose `certificates` field is `certificates` (raw).
    static func signedData(certificates: [UInt8]) -> [UInt8] {
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let signed = tlv(0x30, [0x02, 0x01, 0x01] + tlv(0x31, []) + tlv(0x30, dataOID) + tlv(0xA0, certificates) + tlv(0x31, []))
        return tlv(0x30, signedDataOID + tlv(0xA0, signed))
    }
}
