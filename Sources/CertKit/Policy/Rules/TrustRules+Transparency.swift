/// Certificate Transparency rules (``CTPolicy``): one per profile that has a CT policy, enforced only with a log
/// list (`--ct-log-list`) for TLS server leaves chaining to a system root.
extension TrustRules {
    /// Apple's published CT policy.
    package static let appleCTRequired = TrustRule(
        "apple.ct-required", .systemTrustedCTRequired, appleOnly,
        "Apple: Certificate Transparency policy (support.apple.com/103214); RFC 6962",
        "with a log list at most 60 days old, an SSL server leaf issued on or after 2018-10-16 and chaining to a system root has valid SCTs: 2 from once- or currently approved logs, 1 from an RFC 6962 log, and either 2 from currently approved logs with 1 delivered by TLS or OCSP, or 1 embedded from a currently approved log and, by lifetime, 2 (≤ 180 days, at most 1 per operator) or 3 (at most 2 per operator)")
    /// Chrome's CT policy.
    package static let webPKICTRequired = TrustRule(
        "webpki.ct-required", .systemTrustedCTRequired, webPKIOnly, "Chrome: Certificate Transparency policy (ct_policy.md); RFC 6962",
        "with a log list at most 70 days old, an SSL server leaf issued on or after 2018-05-01 and chaining to a system root has valid embedded SCTs from 2 (lifetime ≤ 180 days) or 3 distinct logs of 2 operators, 1 from a qualified, usable or read-only log (a retired log's SCT counts when older than the retirement), or 2 SCTs delivered by TLS or OCSP from qualified, usable or read-only logs of 2 operators")

    /// The Certificate Transparency rules.
    static let transparencyRules: [TrustRule] = [appleCTRequired, webPKICTRequired]
}
