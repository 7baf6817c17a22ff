import Foundation

/// The one place that decides how trust settings apply (``TrustSettings`` documents the rules): built once per
/// evaluation, it answers for a certificate and a policy what the user's settings say.
package struct TrustSettingsIndex: Sendable, Hashable {
    /// What the settings say about one certificate under one policy.
    package struct Resolution: Sendable, Hashable {
        /// The deciding result: `trustRoot`, `trustAsRoot`, `deny`, or nil when no constraint decides.
        package var result: TrustSettings.Result?
        /// The checks not reported for the certificate (from every constraint that applies).
        package var allowedErrors: Set<TrustCheck>
        /// The earliest distrust-after date of the constraints that apply (``TrustSettings/UsageConstraint/distrustAfter``),
        /// its own or a related certificate's (as a deny binds); nil: none.
        package var distrustAfter: Date? = nil

        /// True when the certificate is an anchor under the policy.
        package var isAnchor: Bool { result?.isAnchor ?? false }
        /// True when the certificate is distrusted under the policy.
        package var isDenied: Bool { result == .deny }
    }

    /// Each certificate's constraints: distrust first (a distrusted certificate is denied whatever else it
    /// carries), then the stored settings in order, then always-trust.
    private let constraints: [Certificate: [TrustSettings.UsageConstraint]]
    /// Certificates that some constraint could make an anchor, in a stable order (always-trust first).
    private let anchorCandidates: [Certificate]
    /// The certificates with a `deny` constraint, under each of their identities (``CertificateIdentity``): a
    /// negative setting binds to what a re-encoded copy shares with the certificate, not to its exact DER.
    private let deniers: [CertificateIdentity: [Certificate]]
    /// The certificates with a distrust-after date, under each of their identities: a date limit is a negative
    /// setting and binds as a deny does.
    private let dateLimited: [CertificateIdentity: [Certificate]]

    /// Indexes `settings`.
    package init(_ settings: TrustSettings) {
        var constraints: [Certificate: [TrustSettings.UsageConstraint]] = [:]
        for certificate in settings.distrust {
            constraints[certificate, default: []].append(TrustSettings.UsageConstraint(result: .deny))
        }
        for entry in settings.certificateSettings {
            constraints[entry.certificate, default: []] += entry.constraints
        }
        for certificate in settings.alwaysTrust {
            constraints[certificate, default: []].append(
                TrustSettings.UsageConstraint(result: .anchor(for: certificate)))
        }
        var seen = Set<Certificate>()
        anchorCandidates = (settings.alwaysTrust + settings.certificateSettings.map(\.certificate)).filter { certificate in
            guard seen.insert(certificate).inserted else { return false }
            return constraints[certificate]?.contains { $0.result.isValid(for: certificate) && $0.result.isAnchor } ?? false
        }
        var deniers: [CertificateIdentity: [Certificate]] = [:]
        for (certificate, list) in constraints where list.contains(where: { $0.result == .deny }) {
            for key in CertificateIdentity.keys(of: certificate) { deniers[key, default: []].append(certificate) }
        }
        var dateLimited: [CertificateIdentity: [Certificate]] = [:]
        for (certificate, list) in constraints where list.contains(where: { $0.distrustAfter != nil }) {
            for key in CertificateIdentity.keys(of: certificate) { dateLimited[key, default: []].append(certificate) }
        }
        self.constraints = constraints
        self.deniers = deniers
        self.dateLimited = dateLimited
    }

    /// True when there is no setting at all.
    package var isEmpty: Bool { constraints.isEmpty }

    /// What the settings say about `certificate` under `policy`: the first applying constraint whose result is
    /// `trustRoot`, `trustAsRoot` (each only where valid for the certificate) or `deny` decides; the allowed
    /// errors of every applying constraint count (only checks an exception could cover). A certificate that
    /// shares an identity (``CertificateIdentity``) with another one denied under `policy` is denied too, whatever
    /// its own constraints say: a re-encoded copy, the same issuer and serial, or the same subject and key.
    /// The same holds for a distrust-after date: the earliest of its own and of those certificates' applies.
    package func resolution(for certificate: Certificate, under policy: TrustPolicy) -> Resolution {
        var resolution = ownResolution(for: certificate, under: policy)
        if resolution.result != .deny, isDeniedByIdentity(certificate, under: policy) { resolution.result = .deny }
        if !dateLimited.isEmpty {
            for key in CertificateIdentity.keys(of: certificate) {
                for other in dateLimited[key] ?? [] where other != certificate {
                    resolution.distrustAfter = Self.earlier(
                        resolution.distrustAfter, ownResolution(for: other, under: policy).distrustAfter)
                }
            }
        }
        return resolution
    }

    /// The earlier of two optional dates (nil: no date).
    private static func earlier(_ first: Date?, _ second: Date?) -> Date? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }

    /// True when a certificate other than `certificate` that shares one of its identities is denied under `policy`
    /// by its own constraints.
    private func isDeniedByIdentity(_ certificate: Certificate, under policy: TrustPolicy) -> Bool {
        guard !deniers.isEmpty else { return false }
        return CertificateIdentity.keys(of: certificate).contains { key in
            deniers[key]?.contains { $0 != certificate && ownResolution(for: $0, under: policy).isDenied } ?? false
        }
    }

    /// What `certificate`'s own constraints say under `policy` (the first deciding one; every allowed error).
    private func ownResolution(for certificate: Certificate, under policy: TrustPolicy) -> Resolution {
        guard let list = constraints[certificate] else { return Resolution(result: nil, allowedErrors: []) }
        var resolution = Resolution(result: nil, allowedErrors: [])
        for constraint in list where constraint.applies(to: policy) {
            resolution.allowedErrors.formUnion(constraint.allowedErrors.filter(\.isExceptionAllowed))
            resolution.distrustAfter = Self.earlier(resolution.distrustAfter, constraint.distrustAfter)
            if resolution.result == nil, constraint.result != .unspecified, constraint.result.isValid(for: certificate) {
                resolution.result = constraint.result
            }
        }
        return resolution
    }

    /// The certificates the settings make anchors under at least one of `policies`, in a stable order.
    package func anchors(for policies: [TrustPolicy]) -> [Certificate] {
        anchorCandidates.filter { certificate in policies.contains { resolution(for: certificate, under: $0).isAnchor } }
    }

    /// True when the settings make `certificate` an anchor under `policy`.
    package func isAnchor(_ certificate: Certificate, under policy: TrustPolicy) -> Bool {
        resolution(for: certificate, under: policy).isAnchor
    }

    /// True when a certificate of `path` is trusted by a `trustRoot` or `trustAsRoot` setting under `policy`:
    /// a passing evaluation then reads `proceed` (trustd's rule for user trust settings).
    package func grantsProceed(_ path: [Certificate], under policy: TrustPolicy) -> Bool {
        guard !constraints.isEmpty else { return false }
        return path.contains { isAnchor($0, under: policy) }
    }

    /// The checks the settings allow, per certificate of `path`, under `policy`.
    package func allowedErrors(_ path: [Certificate], under policy: TrustPolicy) -> [Set<TrustCheck>] {
        guard !constraints.isEmpty else { return path.map { _ in [] } }
        return path.map { resolution(for: $0, under: policy).allowedErrors }
    }
}
