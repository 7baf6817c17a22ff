/// The names of the policies as options and reports spell them (`TrustPolicy.description`).
package enum PolicyName: String, Sendable, CaseIterable {
    /// ``TrustPolicy/basicX509``.
    case basic
    /// ``TrustPolicy/ssl(server:name:profile:)`` with `server == true`.
    case sslServer = "ssl-server"
    /// ``TrustPolicy/ssl(server:name:profile:)`` with `server == false`, or ``TrustPolicy/sslClient(identities:profile:)``.
    case sslClient = "ssl-client"
    /// ``TrustPolicy/email(address:profile:)``; chosen by giving one email address and no policy.
    case email
}
