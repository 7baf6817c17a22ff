import CertKit

/// Reads the revocation files: `--crl` (decoded by the core's ``CertificateRevocationList/decodeAll(_:limits:)``)
/// and `--ocsp-response` (one DER ``OCSPResponse``); and `--ct-log-list` (a ``CTLogList``).
struct RevocationFileLoader {
    let reader: InputReader

    /// Every CRL in `argument`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the file cannot be read or holds no valid CRL.
    func load(_ argument: String) throws(CLIError) -> [CertificateRevocationList] {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        do {
            return try CertificateRevocationList.decodeAll(bytes)
        } catch {
            if let kind = DERKind.identify(bytes), kind != .crl {
                throw .input(file: name, problem: "\(kind.description), not a CRL")
            }
            throw .input(file: name, problem: "not a CRL: \(error.message)")
        }
    }

    /// The OCSP response in `argument`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the file cannot be read or is not one DER OCSP response.
    func loadOCSPResponse(_ argument: String) throws(CLIError) -> OCSPResponse {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        guard !bytes.isEmpty else { throw .input(file: name, problem: "not an OCSP response: empty file") }
        do {
            return try OCSPResponse(derEncoded: bytes)
        } catch {
            if let kind = DERKind.identify(bytes), kind != .ocspResponse {
                throw .input(file: name, problem: "\(kind.description), not an OCSP response")
            }
            if let label = try? PEM.decode(bytes).first?.label {
                throw .input(
                    file: name,
                    problem: "a PEM \(MessageText.line(label)) block, not an OCSP response (one DER response, as openssl ocsp -respout writes it)")
            }
            throw .input(file: name, problem: "not an OCSP response: \(error.message)")
        }
    }

    /// The Certificate Transparency log list in `argument` (`--ct-log-list`).
    /// - Throws: ``CLIError/input(file:problem:)`` when the file cannot be read or is not a v3 log list.
    func loadLogList(_ argument: String) throws(CLIError) -> CTLogList {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        do {
            return try CTLogList(json: bytes, source: name)
        } catch {
            let prefix = name + ": "
            throw .input(file: name, problem: error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message)
        }
    }
}
