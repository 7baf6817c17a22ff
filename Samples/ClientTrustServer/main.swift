// ClientTrustServer: a loopback TLS server that requires a client certificate and lets certkit decide on it —
// the server side of mutual TLS, as a server's client-certificate check with SecTrust and the SSL client policy.
//
//   swift run ClientTrustServer --anchor CLIENT-CA.pem --cert SERVER-CHAIN.pem --key SERVER.key
//                               [--tls openssl|gnutls] [--port N] [--email ADDR ...] [--connections N] [--timeout S]
//
// OpenSSL (the default) or GnuTLS carries the handshake with its own verification replaced: the chain the client
// presents goes to certkit's ClientTrust (ssl-client policy, the client CA as the only anchor, optionally one of
// the expected email addresses; evaluated with the backend of the same library), and a refusal ends the handshake
// with an alert. One line per client on standard output:
//   client 1: trusted: CN=alice (unspecified)
//   client 2: refused: CN=alice: recoverableTrustFailure: errSecCertificateExpired: ... [0] TemporalValidity
// Exit status: 0 after serving --connections clients (default 1), 2 usage, file or listening error.
import CertKit
import CertKitGnuTLS
import CertKitOpenSSL
import CertKitSockets
import Foundation

struct Arguments {
    var anchor: String?
    var certificate: String?
    var key: String?
    var tls = "openssl"
    var port: UInt16 = 0
    var emails: [String] = []
    var connections = 1
    var timeout: Double = 30

    static let usage = """
        usage: ClientTrustServer --anchor CLIENT-CA.pem --cert SERVER-CHAIN.pem --key SERVER.key \
        [--tls openssl|gnutls] [--port N] [--email ADDR ...] [--connections N] [--timeout S]
        """

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument != "-h", argument != "--help" else { throw UsageError(Self.usage, exitCode: 0) }
            guard let value = rest.popFirst() else { throw UsageError("\(argument) needs a value") }
            switch argument {
            case "--anchor": anchor = value
            case "--cert": certificate = value
            case "--key": key = value
            case "--email": emails.append(value)
            case "--tls":
                guard ["openssl", "gnutls"].contains(value) else { throw UsageError("--tls needs openssl or gnutls") }
                tls = value
            case "--port":
                guard let number = UInt16(value) else { throw UsageError("--port needs 0-65535") }
                port = number
            case "--connections":
                guard let number = Int(value), number > 0 else { throw UsageError("--connections needs a count > 0") }
                connections = number
            case "--timeout":
                guard let seconds = Double(value), seconds > 0 else { throw UsageError("--timeout needs seconds > 0") }
                timeout = seconds
            default: throw UsageError("unexpected '\(argument)'")
            }
        }
        guard anchor != nil, certificate != nil, key != nil else { throw UsageError("--anchor, --cert and --key are required") }
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

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ClientTrustServer: \(message)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func read(_ path: String) -> [UInt8] {
    do { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) } catch { fail("\(path): cannot read") }
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    if error.exitCode == 0 { print(error.message); exit(0) }
    fail("\(error.message)\n\(Arguments.usage)")
}

// The server's own identity, and the client CA: the only anchor for client certificates.
let serverChain: [Certificate]
let clientCAs: [Certificate]
do {
    serverChain = try CertificateBundle.decode(read(arguments.certificate!)).certificates
    clientCAs = try CertificateBundle.decode(read(arguments.anchor!)).certificates
} catch {
    fail("\(error)")
}
// The TLS library: it imports the server's key, carries the handshake and gives ClientTrust its backend.
let importer: any IdentityImporter = arguments.tls == "gnutls" ? GnuTLSIdentityImporter() : OpenSSLIdentityImporter()
let backend: Backend = arguments.tls == "gnutls" ? .gnutls : .openssl
let serverIdentity: Identity
do {
    serverIdentity = try importer.importIdentity(
        certificates: serverChain, privateKey: read(arguments.key!), password: nil)
} catch {
    fail("\(arguments.key!): \(error)")
}

// The decision: certkit's ClientTrust.
let trust = ClientTrust(
    evaluator: TrustEvaluator(backend: backend), anchors: clientCAs,
    expectedIdentities: arguments.emails.map { GeneralName.email($0) })
nonisolated(unsafe) var lastReport: TrustReport?
func decide(_ presented: [[UInt8]]) -> Bool {
    let report = trust.evaluate(presentedDER: presented)
    lastReport = report
    return report.isTrusted
}
let server: any ClientCertificateServer
do {
    server = arguments.tls == "gnutls"
        ? try GnuTLSClientCertificateServer(identity: serverIdentity, decide: decide)
        : try OpenSSLClientCertificateServer(identity: serverIdentity, decide: decide)
} catch {
    fail("\(error)")
}

// A client that closes first must not kill the server with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let listener: TCPListener
do { listener = try TCPListener(port: arguments.port) } catch { fail("\(error)") }
say("listening on 127.0.0.1:\(listener.port)")

for number in 1...arguments.connections {
    lastReport = nil
    do {
        let presented = try server.serveOne(
            on: listener, timeout: .milliseconds(Int64(arguments.timeout * 1000)), reply: Array("trusted\n".utf8))
        let subject = lastReport?.chain.first?.subject.description ?? "\(presented.count) certificate(s)"
        say("client \(number): trusted: \(subject) (\(lastReport.map { "\($0.result)" } ?? "?"))")
    } catch .timeout where lastReport == nil {
        fail("no client within \(arguments.timeout) s")
    } catch {
        guard let report = lastReport else {
            say("client \(number): refused: no certificate or handshake failure: \(error)")
            continue
        }
        let subject = report.chain.first?.subject.description ?? "?"
        let why = report.error.map { "\($0.code.name): \($0.message)" } ?? ""
        let checks = report.checks.enumerated().filter { !$0.element.isEmpty }.map { index, failed in
            "[\(index)] " + failed.sorted().map(\.name).joined(separator: ", ")
        }.joined(separator: " ")
        say("client \(number): refused: \(subject): \(report.result): \(why) \(checks)")
    }
}
