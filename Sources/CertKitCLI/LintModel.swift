import CertKit
import Foundation

/// One thing `certkit lint` found: a rule a certificate breaks, for a client target or as an issuance finding.
struct LintFinding: Sendable, Hashable {
    /// The rule id (`certkit.peer-name`, `br.validity-period`, `library.noIssuer`).
    var rule: String
    /// The certificate's index in the chain the finding is about (0 = leaf); nil for the whole chain.
    var certificateIndex: Int?
    /// The certificate's subject (RFC 4514), empty when ``certificateIndex`` is nil.
    var subject: String
    /// Apple's check name where there is one (`SSLHostname`), else nil.
    var check: String?
    /// What exactly is wrong, when more can be said than the rule (the library's words, a number of days).
    var detail: String?
    /// How to fix it, one line (``LintFixHints``).
    var hint: String

    init(rule: String, certificateIndex: Int?, subject: String, check: String? = nil, detail: String? = nil) {
        self.rule = rule
        self.certificateIndex = certificateIndex
        self.subject = subject
        self.check = check
        self.detail = detail
        self.hint = LintFixHints.hint(for: rule)
    }

    /// The row a finding takes in the table: the same rule on the same certificate is one row for every target.
    var rowKey: String { "\(certificateIndex.map(String.init) ?? "-")\u{0}\(subject)\u{0}\(rule)" }
}

/// What one extra rule set (a target's rules beyond its profile, or the issuance findings) looks at.
struct LintInput: Sendable {
    /// The chain as given (leaf first).
    var presented: [Certificate]
    /// The chain the target's evaluation built (leaf first), nil for the issuance findings.
    var built: [Certificate]?
    /// The verify time.
    var date: Date
    /// The host or IP checked, if any.
    var peerName: String?
}

/// A named set of rules outside the core's profiles: a target may add some (Certificate Transparency for a
/// browser, for example), and the issuance findings are one.
struct LintRuleSet: Sendable {
    /// The set's name, e.g. `issuance`.
    var name: String
    /// The findings for one chain.
    var findings: @Sendable (LintInput) -> [LintFinding]
}

/// A client `certkit lint` judges the chain for: a row of data — its name, the core profile it applies, the
/// rule sets it adds, and whether certkit's core or a library's own verifier decides.
struct LintTarget: Sendable {
    /// Who decides.
    enum Mode: Sendable, Equatable {
        /// certkit's core rules under ``LintTarget/profile``, with the backend chosen by `--backend`.
        case core
        /// The named library's own path verifier (OpenSSL's `X509_verify_cert`, GnuTLS's
        /// `gnutls_x509_trust_list_verify_crt2`) on the path the core chose under ``LintTarget/profile``, as the
        /// audit mode runs it: no host name, no purpose, no security level.
        case library(String)
    }

    var name: String
    var profile: TrustProfile
    var ruleSets: [LintRuleSet]
    var mode: Mode
    /// A few words for `lint --help`.
    var summary: String

    /// Every target, in column order. Today ios and macos apply the same (apple) rules, and so do chrome and
    /// firefox (webpki): their columns differ once a target gains a rule set of its own.
    static let all: [LintTarget] = [
        LintTarget(name: "ios", profile: .apple, ruleSets: [], mode: .core,
                   summary: "Apple iOS, the apple profile as trustd applies it"),
        LintTarget(name: "macos", profile: .apple, ruleSets: [], mode: .core,
                   summary: "Apple macOS, the apple profile as trustd applies it"),
        LintTarget(name: "chrome", profile: .webpki, ruleSets: [], mode: .core,
                   summary: "Chrome, the webpki profile"),
        LintTarget(name: "firefox", profile: .webpki, ruleSets: [], mode: .core,
                   summary: "Firefox, the webpki profile"),
        LintTarget(name: "rfc5280", profile: .rfc5280, ruleSets: [], mode: .core,
                   summary: "RFC 5280 as written, the rfc5280 profile"),
        LintTarget(name: "openssl", profile: .rfc5280, ruleSets: [], mode: .library("openssl"),
                   summary: "OpenSSL's own verifier on the path certkit builds"),
        LintTarget(name: "gnutls", profile: .rfc5280, ruleSets: [], mode: .library("gnutls"),
                   summary: "GnuTLS's own verifier on the path certkit builds"),
    ]

    /// The target names, in column order.
    static var names: [String] { all.map(\.name) }
}

/// One target's verdict on the chain.
struct LintVerdict: Sendable {
    var target: LintTarget
    /// The backend whose library verified signatures (and, for a library target, judged).
    var backend: String
    var trusted: Bool
    /// The core's result type (a library target: `unspecified` when the library accepts, else
    /// `recoverableTrustFailure`).
    var result: TrustResultType
    /// The chain the target judged (leaf first).
    var chain: [Certificate]
    /// Every rule broken, in chain order then rule order.
    var findings: [LintFinding]
    /// How many candidate paths the core tried.
    var pathsTried: Int
    /// Other candidate paths the core could have judged (each without one certificate of the reported path) and
    /// what it finds on them; core targets only.
    var otherPaths: [LintPath] = []
}

/// A candidate path other than the one a target's report is about, with its verdict and findings.
struct LintPath: Sendable {
    var chain: [Certificate]
    var trusted: Bool
    var findings: [LintFinding]
}

/// Everything `certkit lint` says about one chain.
struct LintResult: Sendable {
    var presented: [Certificate]
    var verdicts: [LintVerdict]
    var issuance: [LintFinding]
    var date: Date
    var peerName: String?
    var notes: ReportNotes
    /// The skipped pool certificates, as the evaluation listed them.
    var skipped: [SkippedCertificate]

    /// True when every target trusts the chain.
    var allTrusted: Bool { verdicts.allSatisfy(\.trusted) }
}
