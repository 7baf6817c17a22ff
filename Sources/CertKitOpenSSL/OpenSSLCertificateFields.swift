import CertKit
import Foundation
internal import COpenSSL

/// Reads a certificate's fields through libcrypto's own accessors, for cross-checking the core's parser.
extension OpenSSLCertificate {
    /// The fields as OpenSSL reads them.
    func libraryFields() throws(BackendError) -> LibraryCertificateFields {
        guard let subject = X509_get_subject_name(handle), let issuer = X509_get_issuer_name(handle) else {
            throw OpenSSLErrorQueue.error("X509_get_subject_name/X509_get_issuer_name")
        }
        guard let serial = X509_get0_serialNumber(handle) else { throw OpenSSLErrorQueue.error("X509_get0_serialNumber") }
        let key = try publicKeyFields()
        return LibraryCertificateFields(
            subjectDER: try Self.nameDER(subject), issuerDER: try Self.nameDER(issuer),
            serialNumber: try Self.integerContents(serial),
            notBefore: try Self.date(X509_get0_notBefore(handle), "notBefore"),
            notAfter: try Self.date(X509_get0_notAfter(handle), "notAfter"),
            subjectAlternativeNames: try subjectAlternativeNames(), basicConstraints: try basicConstraints(),
            keyAlgorithm: key.algorithm, keyBits: key.bits, curveOID: key.curveOID)
    }

    /// `X509_get_ext_d2i(NID_subject_alt_name)`; nil when absent.
    private func subjectAlternativeNames() throws(BackendError) -> [GeneralName]? {
        var critical: Int32 = 0
        guard let decoded = X509_get_ext_d2i(handle, NID_subject_alt_name, &critical, nil) else {
            if critical == -1 { return nil }
            throw OpenSSLErrorQueue.error("X509_get_ext_d2i(subjectAltName) failed (\(critical))", code: .refusedInput)
        }
        let names = OpenSSLGeneralNames(taking: decoded)
        var result: [GeneralName] = []
        for name in names.names {
            result.append(try Self.generalName(name.pointee))
        }
        return withExtendedLifetime(names) { result }
    }

    /// `X509_get_ext_d2i(NID_basic_constraints)`; nil when absent.
    private func basicConstraints() throws(BackendError) -> BasicConstraints? {
        var critical: Int32 = 0
        guard let decoded = X509_get_ext_d2i(handle, NID_basic_constraints, &critical, nil) else {
            if critical == -1 { return nil }
            throw OpenSSLErrorQueue.error("X509_get_ext_d2i(basicConstraints) failed (\(critical))", code: .refusedInput)
        }
        let constraints = OpenSSLBasicConstraints(taking: decoded)
        return BasicConstraints(isCA: constraints.isCA, pathLength: constraints.pathLength)
    }

    /// `X509_get0_pubkey`, `EVP_PKEY_get_base_id`, `EVP_PKEY_get_bits`, `EVP_PKEY_get_group_name`.
    private func publicKeyFields() throws(BackendError) -> (
        algorithm: LibraryCertificateFields.KeyAlgorithm, bits: Int, curveOID: String?
    ) {
        guard let key = X509_get0_pubkey(handle) else { throw OpenSSLErrorQueue.error("X509_get0_pubkey") }
        let bits = Int(EVP_PKEY_get_bits(key))
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: return (.rsa, bits, nil)
        case EVP_PKEY_DSA: return (.dsa, bits, nil)
        case EVP_PKEY_ED25519: return (.ed25519, bits, nil)
        case EVP_PKEY_ED448: return (.ed448, bits, nil)
        case EVP_PKEY_EC:
            var buffer = [CChar](repeating: 0, count: 80)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else {
                throw OpenSSLErrorQueue.error("EVP_PKEY_get_group_name")
            }
            let group = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (.ec, bits, Self.oid(ofShortName: group) ?? group)
        case let other:
            let name = OBJ_nid2sn(other).map { String(cString: $0) } ?? "NID \(other)"
            return (.other(name), bits, nil)
        }
    }

    /// One GENERAL_NAME as a ``GeneralName``; forms other than DNS, IP, email, URI and directoryName are
    /// reported by tag with empty contents.
    private static func generalName(_ name: GENERAL_NAME) throws(BackendError) -> GeneralName {
        switch name.type {
        case GEN_DNS: return .dnsName(text(name.d.dNSName))
        case GEN_EMAIL: return .email(text(name.d.rfc822Name))
        case GEN_URI: return .uri(text(name.d.uniformResourceIdentifier))
        case GEN_IPADD: return .ipAddress(bytes(name.d.iPAddress))
        case GEN_DIRNAME:
            guard let directory = name.d.directoryName else { throw BackendError(.refusedInput, "openssl: empty directoryName") }
            return .directoryName(DistinguishedName(derEncoded: try nameDER(directory), relativeNames: []))
        default: return .other(tag: UInt8(name.type), contents: [])
        }
    }

    /// The bytes of an `ASN1_STRING`.
    private static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    /// An IA5String's text.
    private static func text(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        String(decoding: bytes(string), as: UTF8.self)
    }

    /// `i2d_X509_NAME`: the Name's DER.
    private static func nameDER(_ name: OpaquePointer) throws(BackendError) -> [UInt8] {
        let length = i2d_X509_NAME(name, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_X509_NAME") }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_X509_NAME(name, &cursor)
        }
        guard written == length else { throw OpenSSLErrorQueue.error("i2d_X509_NAME") }
        return output
    }

    /// `i2d_ASN1_INTEGER`, without the tag and length: the INTEGER's content octets.
    private static func integerContents(_ integer: UnsafePointer<ASN1_INTEGER>) throws(BackendError) -> [UInt8] {
        let length = i2d_ASN1_INTEGER(integer, nil)
        guard length > 0 else { throw OpenSSLErrorQueue.error("i2d_ASN1_INTEGER") }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ASN1_INTEGER(integer, &cursor)
        }
        guard written == length, output.count >= 2 else { throw OpenSSLErrorQueue.error("i2d_ASN1_INTEGER") }
        let header = output[1] < 0x80 ? 2 : 2 + Int(output[1] & 0x7F)
        return Array(output.dropFirst(header))
    }

    /// `ASN1_TIME_to_tm` + `timegm`.
    private static func date(_ time: UnsafePointer<ASN1_TIME>?, _ field: String) throws(BackendError) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { throw OpenSSLErrorQueue.error("ASN1_TIME_to_tm(\(field))") }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The dotted OID of a short name such as `prime256v1` (`OBJ_sn2nid`, `OBJ_obj2txt`).
    private static func oid(ofShortName name: String) -> String? {
        let nid = OBJ_sn2nid(name)
        guard nid != NID_undef, let object = OBJ_nid2obj(nid) else { return nil }
        var buffer = [CChar](repeating: 0, count: 80)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0, Int(length) < buffer.count else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension OpenSSLBackend: LibraryFieldsReader {
    /// Parses `der` with `d2i_X509` and reads its fields with libcrypto's accessors.
    package func libraryFields(of der: [UInt8]) throws(BackendError) -> LibraryCertificateFields {
        OpenSSLErrorQueue.clear()
        return try OpenSSLCertificate(der: der).libraryFields()
    }
}
