import CertKit

/// Reads CRLs given with `--crl`: PEM (`X509 CRL` blocks) or DER.
struct CRLLoader {
    let reader: InputReader

    /// Every CRL in `argument`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the file cannot be read or holds no valid CRL.
    func load(_ argument: String) throws(CLIError) -> [CertificateRevocationList] {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        do throws(CertificateDecodingError) {
            var blocks: [PEMBlock] = []
            do throws(CertificateDecodingError) {
                blocks = try PEM.decode(bytes)
            } catch where error.kind == .limitExceeded {
                throw error
            } catch {
                blocks = []  // not PEM: read as DER below
            }
            if !blocks.isEmpty {
                let crlBlocks = blocks.filter { $0.label == "X509 CRL" }
                guard !crlBlocks.isEmpty else {
                    let labels = MessageText.summary(blocks.map(\.label))
                    throw CertificateDecodingError(.noCertificate, "no X509 CRL block (found \(labels))")
                }
                return try crlBlocks.map { block throws(CertificateDecodingError) in
                    try CertificateRevocationList(derEncoded: block.bytes)
                }
            }
            guard !bytes.isEmpty else { throw CertificateDecodingError(.empty, "empty file") }
            return [try CertificateRevocationList(derEncoded: bytes)]
        } catch {
            throw .input(file: name, problem: "not a CRL: \(error.message)")
        }
    }
}
