@testable import CertKitCLI
import Foundation
import Testing

@Suite("the tool")
struct CommandTests {
    @Test("--help and help per command")
    func help() {
        let tool = certkit(["--help"])
        #expect(tool.code == 0 && tool.stdoutText.hasPrefix("usage: certkit <command>"))
        for command in ["convert", "inspect", "evaluate"] {
            #expect(tool.stdoutText.contains("  \(command) "))
            let help = certkit([command, "--help"])
            #expect(help.code == 0 && help.stdoutText.hasPrefix("usage: certkit \(command)"), "\(command)")
            #expect(certkit([command, "-h", "--anything-after-help-is-still-parsed"]).code == 2)
            #expect(certkit([command, "x", "-h"]).code == 0)
        }
        #expect(certkit(["evaluate", "--help"]).stdoutText.contains("--save-exceptions FILE"))
    }

    @Test("--version")
    func version() {
        let result = certkit(["--version"])
        #expect(result.code == 0 && result.stdoutText.hasPrefix("certkit \(CertKitCommand.version)\nopenssl: OpenSSL 3."))
        #expect(result.stdoutText.contains("\ngnutls: GnuTLS 3."))
    }

    @Test("usage errors: one line, exit 2, a hint to --help", arguments: [[], ["frobnicate"], ["--frobnicate"]])
    func usage(arguments: [String]) {
        let result = certkit(arguments)
        #expect(result.code == 2)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("certkit: ") && result.stderr.contains("(see 'certkit --help')"))
    }
}
