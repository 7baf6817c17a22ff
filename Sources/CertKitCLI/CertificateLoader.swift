import CertKit

/// Reads inputs and decodes their certificates, reporting skipped PEM blocks and tolerated oddities as warnings.
struct CertificateLoader {
    let reader: InputReader
    let stderr: any ByteSink

    /// Reads `argument` (a path or `-`) and decodes every certificate in it.
    /// - Parameter backend: when given, the backend must also import each certificate; a refusal is an input error.
    /// - Throws: ``CLIError/input(file:problem:)`` when the input cannot be read or holds no usable certificate.
    func load(_ argument: String, backend: (any TrustBackend)? = nil) throws(CLIError) -> CertificateBundle {
        try decode(reader.read(argument), name: InputReader.displayName(argument), backend: backend)
    }

    /// Reads `argument` as part of the pool (`--intermediates`): a certificate that does not decode is left out
    /// and listed, named by the input, instead of failing the command.
    /// - Throws: ``CLIError/input(file:problem:)`` when the input cannot be read, breaks a bound, is not a
    ///   certificate file at all or holds no certificate entry.
    func loadPool(_ argument: String) throws(CLIError) -> (certificates: [Certificate], skipped: [SkippedCertificate]) {
        let name = InputReader.displayName(argument)
        let bundle = try decode(reader.read(argument), name: name, skipping: true)
        return (bundle.certificates, Self.skipped(bundle, source: name))
    }

    /// Reads `argument` as a chain (leaf first): the leaf must decode; a later certificate that does not is left
    /// out and listed, as a pool certificate is.
    /// - Throws: ``CLIError/input(file:problem:)`` as ``loadPool(_:)`` does, and when the leaf does not decode.
    func loadChain(_ argument: String) throws(CLIError) -> (certificates: [Certificate], skipped: [SkippedCertificate]) {
        let name = InputReader.displayName(argument)
        let bundle = try decode(reader.read(argument), name: name, skipping: true)
        if let leaf = bundle.undecodable.first(where: { $0.index == 0 }) {
            throw .input(file: name, problem: "the leaf does not decode: \(leaf.reason)")
        }
        return (bundle.certificates, Self.skipped(bundle, source: name))
    }

    /// The bundle's undecodable entries as skipped certificates of `source`.
    static func skipped(_ bundle: CertificateBundle, source: String) -> [SkippedCertificate] {
        bundle.undecodable.map { SkippedCertificate(source: source, index: $0.index, reason: $0.reason) }
    }

    /// Decodes every certificate in `bytes`, read from the input called `name`, as ``load(_:backend:)`` does;
    /// with `skipping`, a certificate entry that does not decode is listed in the bundle's `undecodable` instead.
    func decode(
        _ bytes: [UInt8], name: String, backend: (any TrustBackend)? = nil, skipping: Bool = false
    ) throws(CLIError) -> CertificateBundle {
        let bundle: CertificateBundle
        do {
            bundle = try CertificateBundle.decode(bytes, skippingUndecodable: skipping)
        } catch {
            throw .input(file: name, problem: error.message)
        }
        guard !bundle.certificates.isEmpty || !bundle.undecodable.isEmpty else {
            throw .input(file: name, problem: "no certificate found")
        }
        for line in Self.warnings(skipped: bundle.skippedBlocks, notes: bundle.notes) {
            stderr.write(DisplayText.escaped("certkit: \(name): warning: \(line)") + "\n")
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

    /// The warnings for skipped blocks and notes: one line each while there are at most `perItemLimit`, else one
    /// summary line naming the first few (a file with 9,000 private keys warns once, not 9,000 times).
    static func warnings(skipped: [String], notes: [String], perItemLimit: Int = 3) -> [String] {
        var lines: [String] = []
        if skipped.count <= perItemLimit {
            lines += skipped.map { "skipped \(MessageText.line($0)) block" }
        } else {
            lines.append("skipped \(skipped.count) non-certificate blocks (\(MessageText.summary(skipped)))")
        }
        if notes.count <= perItemLimit {
            lines += notes.map { MessageText.line($0, limit: CertificateDecodingError.maximumMessageLength) }
        } else {
            lines.append("\(notes.count) notes, the first: \(MessageText.line(notes[0], limit: 200))")
        }
        return lines
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
