extension NameConstraintsChecker {
    /// ``violations(of:certificate:extraNames:)``, and with `validNamesOnly` also every subjectAltName that is
    /// not a valid name of its type (``NameSyntax/isValid(_:)``) while the constraints permit subtrees of its
    /// form: such a name never satisfies a permitted subtree (RFC 5280 §4.2.1.6, §4.2.1.10).
    public static func violations(
        of constraints: NameConstraints, certificate: Certificate, extraNames: [GeneralName] = [], validNamesOnly: Bool
    ) -> [GeneralName] {
        var found = violations(of: constraints, certificate: certificate, extraNames: extraNames)
        guard validNamesOnly else { return found }
        for name in certificate.extensions.subjectAlternativeNames ?? [] where !NameSyntax.isValid(name) {
            if constraints.permitted.contains(where: { sameForm($0, name) }) && !found.contains(name) {
                found.append(name)
            }
        }
        return found
    }
}
