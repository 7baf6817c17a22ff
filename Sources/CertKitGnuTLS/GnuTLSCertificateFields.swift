import CertKit
import Foundation
internal import CGnuTLS
internal import CGnuTLSShims

/// Reads a certificate's fields through GnuTLS's own accessors, for cross-checking the core's parser.
extension GnuTLSCertificate {
    /// The fields as GnuTLS reads them.
    func libraryFields() throws(BackendError) -> LibraryCertificateFields {
        var subject = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSLibrary.check(gnutls_x509_crt_get_raw_dn(handle, &subject), "gnutls_x509_crt_get_raw_dn")
        let subjectDER = GnuTLSLibrary.takeDatum(subject)
        var issuer = gnutls_datum_t(data: nil, size: 0)
        try GnuTLSLibrary.check(gnutls_x509_crt_get_raw_issuer_dn(handle, &issuer), "gnutls_x509_crt_get_raw_issuer_dn")
        let issuerDER = GnuTLSLibrary.takeDatum(issuer)
        let key = try publicKeyFields()
        return LibraryCertificateFields(
            subjectDER: subjectDER, issuerDER: issuerDER, serialNumber: try serialNumber(),
            notBefore: Date(timeIntervalSince1970: TimeInterval(activationTime)),
            notAfter: Date(timeIntervalSince1970: TimeInterval(expirationTime)),
            subjectAlternativeNames: try subjectAlternativeNames(),
            basicConstraints: basicConstraints.map { BasicConstraints(isCA: $0.isCA, pathLength: $0.pathLength) },
            keyAlgorithm: key.algorithm, keyBits: key.bits, curveOID: key.curveOID)
    }

    /// `gnutls_x509_crt_get_serial`: the INTEGER's content octets as encoded.
    private func serialNumber() throws(BackendError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var size = buffer.count
        try GnuTLSLibrary.check(gnutls_x509_crt_get_serial(handle, &buffer, &size), "gnutls_x509_crt_get_serial")
        return Array(buffer.prefix(size))
    }

    /// `gnutls_x509_crt_get_subject_alt_name` for each index until the list ends; nil when there is no
    /// subjectAltName extension.
    private func subjectAlternativeNames() throws(BackendError) -> [GeneralName]? {
        var names: [GeneralName] = []
        var sequence: UInt32 = 0
        while true {
            var size = 0
            var critical: UInt32 = 0
            var code = gnutls_x509_crt_get_subject_alt_name(handle, sequence, nil, &size, &critical)
            if code == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE { return sequence == 0 ? nil : names }
            var buffer = [UInt8](repeating: 0, count: size + 1)
            if code == GNUTLS_E_SHORT_MEMORY_BUFFER || code >= 0 {
                size = buffer.count
                code = gnutls_x509_crt_get_subject_alt_name(handle, sequence, &buffer, &size, &critical)
            }
            try GnuTLSLibrary.check(code, "gnutls_x509_crt_get_subject_alt_name")
            let value = Array(buffer.prefix(size))
            switch gnutls_x509_subject_alt_name_t(UInt32(code)) {
            case GNUTLS_SAN_DNSNAME: names.append(.dnsName(String(decoding: value, as: UTF8.self)))
            case GNUTLS_SAN_RFC822NAME: names.append(.email(String(decoding: value, as: UTF8.self)))
            case GNUTLS_SAN_URI: names.append(.uri(String(decoding: value, as: UTF8.self)))
            case GNUTLS_SAN_IPADDRESS: names.append(.ipAddress(value))
            case GNUTLS_SAN_DN: names.append(.other(tag: 4, contents: []))
            case GNUTLS_SAN_OTHERNAME, GNUTLS_SAN_OTHERNAME_XMPP, GNUTLS_SAN_OTHERNAME_KRB5PRINCIPAL,
                 GNUTLS_SAN_OTHERNAME_MSUSERPRINCIPAL:
                names.append(.other(tag: 0, contents: []))
            case GNUTLS_SAN_REGISTERED_ID: names.append(.other(tag: 8, contents: []))
            default: names.append(.other(tag: 0xFF, contents: []))
            }
            sequence += 1
        }
    }

    /// `gnutls_x509_crt_get_pk_algorithm` (with bits) and, for EC keys, the curve from
    /// `gnutls_x509_crt_get_pk_ecc_raw` as an OID (`gnutls_ecc_curve_get_oid`).
    private func publicKeyFields() throws(BackendError) -> (
        algorithm: LibraryCertificateFields.KeyAlgorithm, bits: Int, curveOID: String?
    ) {
        var bits: UInt32 = 0
        let code = try GnuTLSLibrary.check(gnutls_x509_crt_get_pk_algorithm(handle, &bits), "gnutls_x509_crt_get_pk_algorithm")
        let algorithm = gnutls_pk_algorithm_t(UInt32(code))
        switch algorithm {
        case GNUTLS_PK_RSA, GNUTLS_PK_RSA_PSS: return (.rsa, Int(bits), nil)
        case GNUTLS_PK_DSA: return (.dsa, Int(bits), nil)
        case GNUTLS_PK_EDDSA_ED25519: return (.ed25519, Int(bits), nil)
        case GNUTLS_PK_EDDSA_ED448: return (.ed448, Int(bits), nil)
        case GNUTLS_PK_ECDSA:
            var curve = GNUTLS_ECC_CURVE_INVALID
            var x = gnutls_datum_t(data: nil, size: 0)
            var y = gnutls_datum_t(data: nil, size: 0)
            try GnuTLSLibrary.check(gnutls_x509_crt_get_pk_ecc_raw(handle, &curve, &x, &y), "gnutls_x509_crt_get_pk_ecc_raw")
            _ = GnuTLSLibrary.takeDatum(x)
            _ = GnuTLSLibrary.takeDatum(y)
            let oid = gnutls_ecc_curve_get_oid(curve).map { String(cString: $0) }
            return (.ec, Int(bits), oid ?? gnutls_ecc_curve_get_name(curve).map { String(cString: $0) })
        default:
            let name = gnutls_pk_get_name(algorithm).map { String(cString: $0) } ?? "GnuTLS PK \(code)"
            return (.other(name), Int(bits), nil)
        }
    }
}

extension GnuTLSBackend: LibraryFieldsReader {
    /// Imports `der` with `gnutls_x509_crt_import` and reads its fields with GnuTLS's accessors.
    package func libraryFields(of der: [UInt8]) throws(BackendError) -> LibraryCertificateFields {
        try GnuTLSCertificate(der: der).libraryFields()
    }
}
