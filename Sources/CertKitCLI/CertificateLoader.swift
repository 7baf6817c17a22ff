import CertKit

/// Reads inputs and decodes their certificates, reporting skipped PEM blocks and tolerated oddities as warnings.
struct CertificateLoader {
    let reader: InputReader
    let stderr: any ByteSink

    /// Reads `argument` (a path or `-`) and decodes every certificate in it.
    /// - Parameter backend: when given, the backend must also import each certificate; a refusal is an input error.
    /// - Throws: ``CLIError/input(file:problem:)`` when the input cannot be read or holds no usable certificate.
    func load(_ argument: String, backend: (any TrustBackend)? = nil) throws(CLIError) -> CertificateBundle {
        let name = InputReader.displayName(argument)
        let bytes = try reader.read(argument)
        let bundle: CertificateBundle
        do {
            bundle = try CertificateBundle.decode(bytes)
        } catch {
            throw .input(file: name, problem: error.message)
        }
        guard !bundle.certificates.isEmpty else {
            throw .input(file: name, problem: "no certificate found")
        }
        for label in bundle.skippedBlocks {
            stderr.write(DisplayText.escaped("certkit: \(name): warning: skipped \(label) block") + "\n")
        }
        for note in bundle.notes {
            stderr.write(DisplayText.escaped("certkit: \(name): warning: \(note)") + "\n")
        }
        if let backend {
            for (position, certificate) in bundle.certificates.enumerated() {
                do {
                    try backend.checkImport(certificate.derEncoded)
                } catch {
                    throw .input(
                        file: name,
                        problem: "certificate \(position + 1) rejected by \(backend.name): \(error.message)")
                }
            }
        }
        return bundle
    }

    /// Loads every certificate of every input, in order.
    func loadAll(_ arguments: [String], backend: (any TrustBackend)? = nil) throws(CLIError) -> [Certificate] {
        var certificates: [Certificate] = []
        for argument in arguments {
            certificates += try load(argument, backend: backend).certificates
        }
        return certificates
    }
}
