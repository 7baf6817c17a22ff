import CertKit
import Foundation

/// One parsed batch input line: its id and its other members, keys checked against the command's list.
struct BatchRequest {
    /// The id to echo: a string, a whole number, or null when the line has none.
    var id: JSONValue
    /// The members other than `id`.
    var members: [String: BatchJSON]

    /// Parses input line `job`; `keys` are the keys the command accepts (besides `id`).
    /// - Returns: the request, or the error line for it.
    static func parse(_ job: BatchPipeline.Job, keys: [String]) -> Result<BatchRequest, BatchFailure> {
        let bytes: ArraySlice<UInt8>
        switch job.line {
        case .tooLong(let length):
            return .failure(BatchFailure(id: .null, error: BatchLineError(
                code: .lineTooLong,
                message: "the line is \(length) bytes, over the limit of \(BatchOptions.maxLineBytes) bytes")))
        case .text(let text):
            bytes = text
        }
        let value: BatchJSON
        do {
            value = try BatchJSON.parse(bytes)
        } catch {
            return .failure(BatchFailure(id: .null, error: BatchLineError(
                code: .malformedJSON, message: "not JSON: \(error.problem) at byte \(error.offset + 1)")))
        }
        guard case .object(let list) = value else {
            return .failure(BatchFailure(id: .null, error: BatchLineError(
                code: .malformedJSON, message: "the line is \(value.typeName), not a JSON object")))
        }
        var id: JSONValue = .null
        var members: [String: BatchJSON] = [:]
        var idProblem: String?
        for (key, member) in list {
            if key == "id" {
                switch member {
                case .string(let text): id = .string(text)
                case .number(_, let integer?): id = .int(integer)
                case .null: id = .null
                default: idProblem = "\"id\" must be a string or a whole number, not \(member.typeName)"
                }
            } else {
                members[key] = member
            }
        }
        if let idProblem {
            return .failure(BatchFailure(id: .null, error: BatchLineError(code: .invalidValue, message: idProblem)))
        }
        // Keys in the order written, so the first unknown one is named.
        if let unknown = list.first(where: { $0.key != "id" && !keys.contains($0.key) })?.key {
            return .failure(BatchFailure(id: id, error: BatchLineError(
                code: .unknownKey,
                message: "unknown key \"\(MessageText.line(unknown))\" (known: \((["id"] + keys).joined(separator: ", ")))")))
        }
        return .success(BatchRequest(id: id, members: members))
    }

    /// The certificates of `chain`: each element PEM text (one or more blocks) or the base64 of a DER
    /// certificate, leaf first.
    func chain() throws(BatchLineError) -> [Certificate] {
        try chain(skipping: false).certificates
    }

    /// The certificates of `chain`, leaf first; with `skipping`, as an evaluation takes them: the leaf (the first
    /// certificate of the first element) must decode, a later certificate that does not is left out and listed
    /// (source `chain[N]`, its index among that element's certificates).
    ///
    /// `decoded` keeps the elements after the first (the intermediates, shared by many lines) decoded: a line that
    /// repeats one gets the same certificates, with what they made on first use (names' text, extensions, hash).
    func chain(
        skipping: Bool, decoded: DecodedChainElements? = nil
    ) throws(BatchLineError) -> (certificates: [Certificate], skipped: [SkippedCertificate]) {
        guard let value = members["chain"] else {
            throw BatchLineError(code: .invalidChain, message: "no \"chain\"")
        }
        guard case .array(let elements) = value else {
            throw BatchLineError(code: .invalidChain, message: "\"chain\" must be an array of strings, not \(value.typeName)")
        }
        guard !elements.isEmpty else { throw BatchLineError(code: .invalidChain, message: "\"chain\" is empty") }
        var certificates: [Certificate] = []
        var skipped: [SkippedCertificate] = []
        for (position, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw BatchLineError(
                    code: .invalidChain, message: "chain[\(position)] must be a string, not \(element.typeName)")
            }
            let cache = position > 0 && skipping ? decoded : nil
            if let bundle = cache?.bundle(text) {
                certificates += bundle.certificates
                skipped += CertificateLoader.skipped(bundle, source: "chain[\(position)]")
                continue
            }
            let bytes: [UInt8]
            if let der = Self.base64(text) {
                bytes = der
            } else if text.utf8.contains(UInt8(ascii: "-")) {
                bytes = Array(text.utf8)
            } else {
                throw BatchLineError(code: .invalidChain, message: "chain[\(position)] is neither PEM nor base64")
            }
            do {
                let bundle = try CertificateBundle.decode(bytes, skippingUndecodable: skipping)
                guard !bundle.certificates.isEmpty || !bundle.undecodable.isEmpty else {
                    throw BatchLineError(code: .invalidChain, message: "chain[\(position)]: no certificate found")
                }
                if position == 0, let leaf = bundle.undecodable.first(where: { $0.index == 0 }) {
                    throw BatchLineError(code: .invalidChain, message: "chain[0]: the leaf does not decode: \(leaf.reason)")
                }
                cache?.store(bundle, for: text)
                certificates += bundle.certificates
                skipped += CertificateLoader.skipped(bundle, source: "chain[\(position)]")
            } catch let error as BatchLineError {
                throw error
            } catch {
                throw BatchLineError(code: .invalidChain, message: "chain[\(position)]: \(Self.message(error))")
            }
        }
        return (certificates, skipped)
    }

    private static func message(_ error: any Error) -> String {
        (error as? CertificateDecodingError)?.message ?? "not a certificate"
    }

    /// The bytes of `text` when it is base64 (standard alphabet, padding optional, whitespace ignored), else nil.
    static func base64(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard let decoded = Base64.decode(bytes, from: 0, to: bytes.count), !decoded.isEmpty else { return nil }
        return decoded
    }

    /// The string member `key`, or nil when absent.
    func string(_ key: String) throws(BatchLineError) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let text) = value else {
            throw BatchLineError(code: .invalidValue, message: "\"\(key)\" must be a string, not \(value.typeName)")
        }
        return text
    }

    /// The member `key` as a list of strings (a string or an array of strings), or nil when absent.
    ///
    /// An empty array is an error, as an empty string is: a line's `host`, `ip` or `email` replaces all of the
    /// command line's identities, so `[]` would silently judge the chain with no name check at all.
    func strings(_ key: String) throws(BatchLineError) -> [String]? {
        guard let value = members[key] else { return nil }
        switch value {
        case .string(let text): return [text]
        case .array(let elements):
            guard !elements.isEmpty else {
                throw BatchLineError(
                    code: .invalidValue,
                    message: "\"\(key)\" is an empty array (give at least one value, or leave the key out)")
            }
            var texts: [String] = []
            for element in elements {
                guard case .string(let text) = element else {
                    throw BatchLineError(
                        code: .invalidValue, message: "\"\(key)\" must be a string or an array of strings")
                }
                texts.append(text)
            }
            return texts
        default:
            throw BatchLineError(
                code: .invalidValue, message: "\"\(key)\" must be a string or an array of strings, not \(value.typeName)")
        }
    }

    /// The `at` member as a date, or nil when absent.
    func date() throws(BatchLineError) -> Date? {
        guard let text = try string("at") else { return nil }
        guard let date = DateText.parse(text) else {
            throw BatchLineError(
                code: .invalidValue,
                message: "\"at\" must be an ISO 8601 date such as 2030-06-01 or 2030-06-01T12:00:00Z, not '\(MessageText.line(text))'")
        }
        return date
    }

    /// The `ocsp` member: OCSP responses (each the base64 of its DER), as a TLS server stapled them for this line's
    /// chain; a string or an array of strings; empty when absent. One that does not decode is an error for the line,
    /// as `--ocsp-response` with such a file is.
    func ocspResponses() throws(BatchLineError) -> [OCSPResponse] {
        guard let texts = try strings("ocsp") else { return [] }
        var responses: [OCSPResponse] = []
        for (position, text) in texts.enumerated() {
            guard let der = Self.base64(text) else {
                throw BatchLineError(code: .invalidValue, message: "ocsp[\(position)] is not base64")
            }
            do {
                responses.append(try OCSPResponse(derEncoded: der))
            } catch {
                if let kind = DERKind.identify(der), kind != .ocspResponse {
                    throw BatchLineError(
                        code: .invalidValue, message: "ocsp[\(position)] is \(kind.description), not an OCSP response")
                }
                throw BatchLineError(
                    code: .invalidValue, message: "ocsp[\(position)] is not an OCSP response: \(error.message)")
            }
        }
        return responses
    }
}

/// The chain elements after the first that a batch decoded (as an evaluation takes them: undecodable certificates
/// left out and listed), by their text, for the lines that repeat them. Shared by the workers behind a lock
/// (`NSLock`, which ThreadSanitizer sees); at most ``capacity`` elements of at most ``maxTextBytes`` each, all
/// forgotten when a new one does not fit.
final class DecodedChainElements: @unchecked Sendable {
    static let capacity = 64
    static let maxTextBytes = 32 * 1_024

    private let lock = NSLock()
    private var bundles: [String: CertificateBundle] = [:]

    /// The bundle decoded from `text`, if kept.
    func bundle(_ text: String) -> CertificateBundle? {
        guard text.utf8.count <= Self.maxTextBytes else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return bundles[text]
    }

    /// Keeps `bundle`, decoded from `text`.
    func store(_ bundle: CertificateBundle, for text: String) {
        guard text.utf8.count <= Self.maxTextBytes else { return }
        lock.lock()
        defer { lock.unlock() }
        if bundles.count >= Self.capacity { bundles.removeAll(keepingCapacity: true) }
        bundles[text] = bundle
    }

    /// How many elements are kept.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return bundles.count
    }
}

/// An error line: the line's id (null when unknown) and what is wrong.
struct BatchFailure: Error {
    var id: JSONValue
    var error: BatchLineError

    func outcome(number: Int) -> BatchOutcome { .error(error, id: id, number: number) }
}

/// Opens a batch input for streaming: a path or `-` for standard input.
enum BatchInput {
    /// A line reader over `input`.
    /// - Throws: ``CLIError/input(file:problem:)`` when the path is missing, a directory or unreadable.
    static func reader(_ input: String, context: CommandContext) throws(CLIError) -> BatchLineReader {
        if input == "-" {
            let stdin = context.stdin
            return BatchLineReader(maxLineBytes: BatchOptions.maxLineBytes) {
                try stdin.read(upToCount: BatchLineReader.chunkSize)
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw .input(file: input, problem: "no such file")
        }
        if isDirectory.boolValue { throw .input(file: input, problem: "is a directory, not a file") }
        guard FileManager.default.isReadableFile(atPath: input), let handle = FileHandle(forReadingAtPath: input) else {
            throw .input(file: input, problem: "permission denied")
        }
        let source = FileHandleSource(handle)
        return BatchLineReader(maxLineBytes: BatchOptions.maxLineBytes) {
            try source.read(upToCount: BatchLineReader.chunkSize)
        }
    }

    /// Runs `pipeline` over `input` and returns its summary.
    /// - Throws: ``CLIError/input(file:problem:)`` when the input cannot be opened or a read fails (the lines
    ///   before the failure are written).
    static func run(_ pipeline: BatchPipeline, input: String, context: CommandContext) throws(CLIError) -> BatchSummary {
        var reader = try reader(input, context: context)
        do {
            return try pipeline.run(&reader)
        } catch {
            throw .input(file: InputReader.displayName(input), problem: "cannot read: \(error.localizedDescription)")
        }
    }
}
