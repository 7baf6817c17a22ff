@testable import CertKit
import CertKitTestSupport
import Foundation

/// Helpers for the encoding tests: running the openssl CLI (throwaway certificates come from ``TestPKI``).
enum EncodingTestSupport {
    static let systemBundlePath = "/etc/ssl/certs/ca-certificates.crt"

    struct CommandError: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `/bin/sh -c script` and returns stdout; throws on a non-zero exit.
    @discardableResult
    static func shell(_ script: String, input: [UInt8]? = nil) throws -> [UInt8] {
        let result = try ProcessRunner.run(["/bin/sh", "-c", script], input: .bytes(input ?? []))
        guard result.status == 0, result.signal == nil else {
            throw CommandError(description: "`\(script)` failed (\(result.status)): \(result.stderrText)")
        }
        return result.stdout
    }

    /// Runs openssl with `arguments` (shell words) and returns stdout as text.
    static func openssl(_ arguments: String, input: [UInt8]? = nil) throws -> String {
        String(decoding: try shell("openssl " + arguments, input: input), as: UTF8.self)
    }

    static func read(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// The certificates of the system bundle, decoded by certkit.
    static func systemCertificates() throws -> [Certificate] {
        try CertificateBundle.decode(read(URL(fileURLWithPath: systemBundlePath))).certificates
    }
}
