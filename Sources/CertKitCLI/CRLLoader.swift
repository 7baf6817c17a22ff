import CertKit

/// Reads the files given with `--crl` (decoded by the core's ``CertificateRevocationList/decodeAll(_:limits:)``).
struct CRLLoader {
    let reader: InputReader

    /// Every CRL in `argument`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the file cannot be read or holds no valid CRL.
    func load(_ argument: String) throws(CLIError) -> [CertificateRevocationList] {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        do {
            return try CertificateRevocationList.decodeAll(bytes)
        } catch {
            throw .input(file: name, problem: "not a CRL: \(error.message)")
        }
    }
}
