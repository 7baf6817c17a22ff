import Foundation
@testable import CertKit

/// Helpers for the encoding tests: running the openssl CLI and making throwaway certificates.
enum EncodingTestSupport {
    static let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    struct CommandError: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `/bin/sh -c script` and returns stdout; throws on a non-zero exit.
    @discardableResult
    static func shell(_ script: String, input: [UInt8]? = nil) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input)) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError(description: "`\(script)` failed (\(process.terminationStatus)): \(errorText)")
        }
        return [UInt8](data)
    }

    /// Runs openssl with `arguments` (shell words) and returns stdout as text.
    static func openssl(_ arguments: String, input: [UInt8]? = nil) throws -> String {
        String(decoding: try shell("openssl " + arguments, input: input), as: UTF8.self)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("certkit-encoding-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func read(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// A self-signed certificate made by the openssl CLI in `directory`, with the given key and extensions.
    /// Returns the PEM path.
    @discardableResult
    static func makeCertificate(in directory: URL, name: String, key: String = "rsa:2048",
                                subject: String = "/CN=test.example/O=Example Org/C=US",
                                extensions: [String] = [], days: Int = 30) throws -> URL {
        let pem = directory.appendingPathComponent("\(name).pem")
        let keyPath = directory.appendingPathComponent("\(name).key")
        let keyArgument: String
        if key.hasPrefix("ec:") {
            let curve = key.dropFirst(3)
            try shell("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:\(curve) -out '\(keyPath.path)'")
            keyArgument = "-key '\(keyPath.path)'"
        } else if key == "ed25519" {
            try shell("openssl genpkey -algorithm ed25519 -out '\(keyPath.path)'")
            keyArgument = "-key '\(keyPath.path)'"
        } else {
            keyArgument = "-newkey \(key) -nodes -keyout '\(keyPath.path)'"
        }
        let extensionArguments = extensions.map { "-addext '\($0)'" }.joined(separator: " ")
        try shell("openssl req -x509 \(keyArgument) -subj '\(subject)' -days \(days) \(extensionArguments) -out '\(pem.path)' 2>/dev/null")
        return pem
    }

    /// The certificates of the system bundle, decoded by certkit.
    static func systemCertificates() throws -> [Certificate] {
        try CertificateBundle.decode(read(URL(fileURLWithPath: systemBundlePath))).certificates
    }
}
