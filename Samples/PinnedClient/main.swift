// PinnedClient: connect to an https:// URL and decide server trust against one bundled root, the way an app's
// URLSession server-trust challenge handler does with SecTrust — on Linux, with certkit.
//
//   swift run PinnedClient [--anchor FILE] [--timeout S] [--identity FILE.p12 --password-env VAR] https://HOST[:PORT][/PATH]
//
// With --identity the client presents that PKCS#12 identity (SecPKCS12Import + a client-certificate challenge
// handler) when the server asks for one; its password comes from the environment variable VAR.
//
// The TLS handshake (OpenSSL, verification off) only captures the chain the server presents; the decision is
// certkit's: SerialTrustEvaluator + the OpenSSL backend, the SSL server policy for HOST, only the bundled root
// as anchor. Exit status: 0 trusted, 1 not trusted, 2 usage, file or connection error.
import CertKit
import CertKitOpenSSL
import Foundation

struct Arguments {
    var anchor = "Samples/root-ca.pem"
    var timeout: Double = 10
    var identity: String?
    var passwordVariable: String?
    var url: URL

    static let usage =
        "usage: PinnedClient [--anchor FILE] [--timeout S] [--identity FILE.p12 --password-env VAR] https://HOST[:PORT][/PATH]"

    init(_ arguments: [String]) throws(UsageError) {
        var url: URL?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                throw UsageError(Self.usage, exitCode: 0)
            case "--anchor":
                guard let value = rest.popFirst() else { throw UsageError("--anchor needs a FILE") }
                anchor = value
            case "--timeout":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else {
                    throw UsageError("--timeout needs a number of seconds greater than 0")
                }
                timeout = value
            case "--identity":
                guard let value = rest.popFirst() else { throw UsageError("--identity needs a FILE.p12") }
                identity = value
            case "--password-env":
                guard let value = rest.popFirst() else { throw UsageError("--password-env needs a VAR") }
                passwordVariable = value
            default:
                guard url == nil, !argument.hasPrefix("-") else { throw UsageError("unexpected '\(argument)'") }
                guard let parsed = URL(string: argument), parsed.scheme?.lowercased() == "https", parsed.host != nil
                else { throw UsageError("'\(argument)' is not an https:// URL") }
                url = parsed
            }
        }
        guard let url else { throw UsageError("no URL given") }
        self.url = url
    }
}

struct UsageError: Error {
    var message: String
    var exitCode: Int32 = 2
    init(_ message: String, exitCode: Int32 = 2) {
        self.message = message
        self.exitCode = exitCode
    }
}

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("PinnedClient: \(message)\n".utf8))
    exit(status)
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    if error.exitCode == 0 { print(error.message); exit(0) }
    fail("\(error.message)\n\(Arguments.usage)")
}

// The bundled root: the only anchor.
let anchors: [Certificate]
do {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: arguments.anchor))
    anchors = try CertificateBundle.decode(Array(bytes)).certificates
} catch {
    fail("\(arguments.anchor): \(error)")
}
guard !anchors.isEmpty else { fail("\(arguments.anchor): no certificate found") }

// The client identity, if any (the app's SecPKCS12Import): certificate, chain and a key that stays in OpenSSL.
var identity: Identity?
if let path = arguments.identity {
    let password = arguments.passwordVariable.flatMap { ProcessInfo.processInfo.environment[$0] } ?? ""
    do {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        identity = try OpenSSLIdentityImporter().importPKCS12(Array(bytes), password: password)
    } catch let error as IdentityError {
        fail("\(path): \(error)")
    } catch {
        fail("\(path): \(error.localizedDescription)")
    }
}

// The handshake: capture what the server presents (and present the identity if asked); OpenSSL decides nothing.
let host = arguments.url.host!.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
let port = UInt16(arguments.url.port ?? 443)
let isIPLiteral: Bool = if case .ip = PeerName.parse(host) { true } else { false }
let presented: [[UInt8]]
do {
    presented = try OpenSSLTLSClient().fetchDER(
        host: host, port: port, serverName: isIPLiteral ? nil : host,
        timeout: .milliseconds(Int64(arguments.timeout * 1000)), identity: identity)
} catch {
    fail("\(host):\(port): \(error)")
}
print("\(arguments.url.absoluteString): the server presented \(presented.count) certificate(s)")

// The challenge handler: certkit decides, on one serial queue.
let handler = PinnedServerTrustHandler(
    anchors: anchors, evaluator: SerialTrustEvaluator(backend: .openssl, label: "PinnedClient.trust"))
var status: Int32 = 1
handler.urlSession(didReceive: ServerTrustChallenge(host: host, presentedChain: presented)) { disposition, report in
    print("decision: \(disposition.rawValue)")
    if report.isTrusted {
        print("why: trusted (\(report.result)): the chain ends at the bundled root \(anchors[0].subject)")
        status = 0
    } else if let error = report.error {
        print("why: \(report.result): \(error.code.name) (\(error.code.rawValue)): \(error.message)")
    } else {
        print("why: \(report.result)")
    }
    for (index, certificate) in report.chain.enumerated() {
        let failed = index < report.checks.count ? report.checks[index].sorted().map(\.name) : []
        print("  [\(index)] \(certificate.subject) — \(failed.isEmpty ? "ok" : failed.joined(separator: ", "))")
    }
}
exit(status)
