import CertKit
import Foundation
import Testing

@Suite("System trust store")
struct SystemTrustStoreTests {
    @Test func findsTheDistributionBundleOrSaysWhyNot() {
        if let override = ProcessInfo.processInfo.environment["SSL_CERT_FILE"], !override.isEmpty {
            #expect(SystemTrustStore.bundlePath == override)
        } else if let path = SystemTrustStore.bundlePath {
            #expect(SystemTrustStore.candidatePaths.contains(path))
            #expect(FileManager.default.isReadableFile(atPath: path))
        } else {
            #expect(SystemTrustStore.problem?.contains("SSL_CERT_FILE") == true)
        }
        // CI installs ca-certificates (Scripts/bootstrap.sh): the Debian bundle must load.
        if SystemTrustStore.bundlePath == "/etc/ssl/certs/ca-certificates.crt" {
            #expect(SystemTrustStore.certificates.count > 50)
            #expect(SystemTrustStore.problem == nil)
        }
    }
}
