/// `NameConstraints` over the whole path (RFC 5280 §4.2.1.10): each CA's constraints apply to every
/// certificate below it (self-issued intermediates excepted), and, under the SSL policy, to the name that
/// was actually matched. A violation is recorded on the certificate whose name violates it.
public struct NameConstraintsCheck: PathCheck {
    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        let certificates = context.certificates
        var matchedNames: [GeneralName] = []
        switch context.policy {
        case .ssl(_, .dns(let host)?, _): matchedNames = [.dnsName(host)]
        case .ssl(_, .ip(let address)?, _): matchedNames = [.ipAddress(address)]
        case .email(let address, _): matchedNames = [.email(address)]
        default: break
        }
        for caIndex in context.issuerIndices {
            guard let constraints = certificates[caIndex].extensions.nameConstraints else { continue }
            for index in 0..<caIndex {
                let certificate = certificates[index]
                if index > 0 && certificate.isSelfIssued { continue }
                let extra = index == 0 ? matchedNames : []
                if !NameConstraintsChecker.violations(of: constraints, certificate: certificate, extraNames: extra).isEmpty {
                    findings.record(.nameConstraints, at: index)
                }
            }
        }
    }
}
