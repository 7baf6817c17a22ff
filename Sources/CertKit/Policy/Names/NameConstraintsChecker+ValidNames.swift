extension NameConstraintsChecker {
    /// ``violations(of:certificate:extraNames:)``, and with `validNamesOnly` also every subjectAltName that is
    /// not a valid name of its type (``NameSyntax/isValid(_:)``) while the constraints have subtrees of its form,
    /// permitted or excluded: such a name never satisfies a permitted subtree, and cannot be shown to lie outside
    /// an excluded one (RFC 5280 §4.2.1.6, §4.2.1.10).
    package static func violations(
        of constraints: NameConstraints, certificate: Certificate, extraNames: [GeneralName] = [], validNamesOnly: Bool
    ) -> [GeneralName] {
        var found = violations(of: constraints, certificate: certificate, extraNames: extraNames)
        guard validNamesOnly else { return found }
        for name in certificate.extensions.subjectAlternativeNames ?? [] where !NameSyntax.isValid(name) {
            if (constraints.permitted + constraints.excluded).contains(where: { sameForm($0, name) }) && !found.contains(name) {
                found.append(name)
            }
        }
        return found
    }
}
