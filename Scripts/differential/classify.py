"""Categories of a case's outcome, and the machine-readable form of Tests/Differential/known-differences.md.

A case where certkit accepts and a reference rejects is *explained* when, for every rejecting reference, a
rule below names that reference and matches one of the case's mutation tags (and the profile in force). Each
rule's id is a row of the known-differences table; keep the two in step."""

import re

# backend-disagreement: one certkit backend trusts the chain and the other does not (the severe kind);
# disagreement-both-reject: both reject, with different results or checks (exit 3 all the same).
FINDINGS = ["unexplained-accept", "backend-disagreement", "disagreement-both-reject", "crash"]
SAVED = FINDINGS + ["other-error"]
ORDER = ["usage-error", "agree-accept", "agree-reject", "certkit-rejects", "certkit-stricter", "explained-accept",
         "explained-disagreement", "other-error", "generator-error"] + FINDINGS


class Rule:
    def __init__(self, rid, tags, references, profiles=None, kind="accept", detail=None):
        self.id = rid
        self.detail = re.compile(detail) if detail else None  # the reference's message must match too
        self.tags = re.compile(tags)
        self.references = set(references)
        self.profiles = profiles  # None: any profile; else a set of profile names (None = default "apple")
        self.kind = kind  # "accept": certkit accepts, the reference rejects; "disagreement": certkit's backends differ

    def applies(self, tags, profile):
        if self.profiles is not None and (profile or "apple") not in self.profiles:
            return False
        for t in tags:
            m = self.tags.search(t)
            if m is None:
                continue
            # (?P<anchor>...) in a pattern: the certificate named there must be an anchor of the case (the root,
            # or an intermediate that a chain.* mutation made an anchor and tagged "anchor@LABEL").
            target = m.groupdict().get("anchor")
            if target is None or target == "root" or "anchor@" + target in tags \
                    or (target == "leaf" and "chain.anchor-is-leaf" in tags):
                return True
        return False


class AboveAnchorRule(Rule):
    """Explains a rejection caused by a certificate the path never reaches: certkit's path ends at the first anchor
    (an intermediate made an anchor by a chain.* mutation, tag anchor@LABEL), so a mutation of a certificate above
    that anchor cannot matter, nor the anchor's own issuer name. References that keep going to the root (GnuTLS
    verifies the chain it is given) or that pick another path reject on it."""
    RANK = {"leaf": 0, "int2": 1, "int": 2, "root": 3}

    def applies(self, tags, profile):
        anchors = [self.RANK[t.split("@", 1)[1]] for t in tags if t.startswith("anchor@") and t.split("@", 1)[1] in self.RANK]
        if not anchors:
            return False
        first = min(anchors)
        for t in tags:
            if t.startswith("anchor@") or "@" not in t:
                continue
            target = t.rsplit("@", 1)[1]
            if target not in self.RANK:
                continue
            if self.RANK[target] > first or (self.RANK[target] == first and t.startswith("name.issuer-")):
                return True
        return False


class AllTagsRule(Rule):
    """A rule that applies only when every one of its patterns matches some tag of the case."""

    def __init__(self, rid, patterns, references, **kw):
        super().__init__(rid, patterns[0], references, **kw)
        self.patterns = [re.compile(p) for p in patterns]

    def applies(self, tags, profile):
        if self.profiles is not None and (profile or "apple") not in self.profiles:
            return False
        return all(any(p.search(t) for t in tags) for p in self.patterns)


OPENSSL_ALL = ("openssl", "openssl-strict")
ALL = ("openssl", "openssl-strict", "gnutls", "pyca")

STRICT = ("openssl-strict",)
PYCA = ("pyca",)
CA = r"@(root|int\d?)$"
NONROOT_CA = r"@int\d?$"

RULES = [
    # The anchor is trusted as given: its own signature (algorithm, parameters, value) is never checked.
    # OpenSSL decides "self-signed" by checking that signature's algorithm against the key, and then looks for
    # the anchor's issuer; pyca and GnuTLS refuse an anchor they cannot parse or whose algorithm they ban.
    Rule("anchor-self-signature", r"^(sigalg|sig)\.[^@]*@(?P<anchor>root|int\d?)$", ALL),
    # RFC 5280 section 4.2.1.x duties of the issuing CA that section 6 path validation does not check;
    # openssl -x509_strict and pyca's web-PKI profile enforce them.
    Rule("ca-aki-ski-presence", r"^ext\.(remove|malformed):(aki|ski)[/@]", STRICT + PYCA),
    # OpenSSL does not list AKI, SKI or AIA among the extensions it handles when critical; certkit (and trustd,
    # and GnuTLS) process them, and "MUST mark non-critical" is a duty of the issuing CA.
    Rule("aki-ski-criticality", r"^ext\.(criticality:(aki|ski|aia)/critical|add:(aki|ski|aia)-critical)", OPENSSL_ALL + PYCA,
         profiles={"apple"}),
    Rule("ca-bc-criticality", r"^(ext\.criticality:bc/(noncritical|explicit-false)|bc\.(int|root)-noncritical)" + CA, STRICT + PYCA),
    Rule("pathlen-on-non-ca", r"^bc\.(leaf-pathlen|int-ca-false-pathlen|leaf-ca-true-pathlen)", STRICT + PYCA, profiles={"apple"}),
    Rule("ca-ku-presence", r"^(ext\.remove:ku|ku\.(int|root)-remove)" + CA, STRICT + PYCA),
    Rule("ku-criticality", r"^(ext\.criticality:ku/noncritical|ku\.[a-z]+-noncritical)@", PYCA),
    # Encodings of DEFAULT values (BOOLEAN FALSE) that X.690 DER forbids but Apple, OpenSSL and GnuTLS accept.
    Rule("explicit-default-false", r"^(ext\.criticality:[a-z]+/explicit-false|bc\.leaf-explicit-false)@", PYCA),
    # Web PKI (CA/B Forum BR) certificate-profile rules that Apple's and RFC 5280's path validation do not have.
    Rule("webpki-serial-length", r"^serial\.(40-bytes|21-bytes|zero|negative|leading-ff)@", PYCA),
    Rule("webpki-eku-critical", r"^(eku\.leaf-critical|ext\.criticality:eku/critical)@", PYCA),
    Rule("webpki-nc-on-leaf", r"^nc\.on-leaf@leaf$", PYCA),
    Rule("webpki-nc-empty", r"^nc\.empty", PYCA),
    Rule("webpki-critical-cdp", r"^(ext\.add:cdp-critical|ext\.criticality:cdp/critical)@", PYCA),
    Rule("webpki-leaf-is-ca", r"^bc\.leaf-ca-true", PYCA),
    # A critical certificatePolicies extension on its own cannot change the outcome unless a policy is required;
    # pyca and GnuTLS treat it as an unknown critical extension. (policyConstraints, inhibitAnyPolicy and
    # policyMappings are NOT explained by it: certkit processes them (RFC 5280 section 6.1, PolicyConstraintsCheck)
    # and only the rule below explains them, where OpenSSL's policy processing accepts the path too.)
    # RFC 5280 section 6.1 policy processing: openssl verify -policy_check (user-initial-policy-set anyPolicy) is
    # the oracle for policy.* cases and for added critical policy extensions. When it accepts, the path is valid
    # and GnuTLS/pyca reject only because they treat the extensions as unknown critical extensions.
    Rule("policy-gnutls-pyca-unsupported",
         r"^(policy\.|ext\.add:(policy-constraints|inhibit-any|policy-mappings)-critical@)", ("gnutls",) + PYCA),
    Rule("critical-certificate-policies", r"^ext\.(add:cp-critical-[a-z-]+|criticality:cp/critical)@", ("gnutls",) + PYCA),
    # RFC 5280 section 7.1 compares names after normalisation (case, spaces, string type); pyca and GnuTLS
    # compare the bytes.
    Rule("name-normalisation", r"^name\.issuer-(case|string-type|whitespace)@", ("gnutls",) + PYCA),
    Rule("webpki-san-criticality", r"^ext\.criticality:san/critical@leaf$", PYCA),
    Rule("empty-subject-san-noncritical", r"^san\.empty-subject-noncritical@leaf$", STRICT + PYCA),
    Rule("utctime-before-2050", r"^validity\.generalized-pre2050@", STRICT + PYCA),
    Rule("webpki-sigalg-allowlist", r"^sigalg\.oid:(sha224WithRSA|ecdsa-with-SHA224)/sha224@", PYCA),
    Rule("rsa-params-absent", r"^sigalg\.params:absent@", PYCA),
    Rule("webpki-nc-empty-dns", r"^nc\.permit-dns-empty", PYCA),
    # pyca's DNSName refuses host names that are not LDH (RFC 1123) before verifying anything.
    Rule("pyca-host-syntax", r"^host\.dns:(hyphen-label|label-64|underscore|double-dot)@leaf$", PYCA),
    # The anchor is trusted as given (RFC 5280 section 6.1.1 (d): its name and key): a v1 anchor is fine.
    Rule("anchor-v1", r"^(ext\.field:(v1-no-exts|explicit-v1|v1-with-exts|uids-v1)@root|chain\.anchor-v1-root)$", STRICT + PYCA),
    # The AKI is an identification hint (RFC 5280 section 4.2.1.1), not a path-validation input; OpenSSL
    # refuses an issuer whose name/serial disagree with authorityCertIssuer/-SerialNumber, pyca wants a keyIdentifier.
    Rule("aki-is-a-hint", r"^ext\.add:aki-issuer-serial@", ALL),
    # anyExtendedKeyUsage in a CA certificate does not restrict the chain (Apple's intermediate EKU rule);
    # OpenSSL and GnuTLS require serverAuth itself in every CA's EKU.
    Rule("ca-eku-any", r"^eku\.(int|root)-any@", OPENSSL_ALL + ("gnutls",)),
    # openssl -crl_check_all wants a CRL in scope for every certificate; certkit checks revocation against the
    # CRLs it is given and needs none (a CRL of another issuer or scope does not apply).
    Rule("openssl-crl-coverage", r"^(crl|chain)\.", OPENSSL_ALL, detail=r"unable to get certificate CRL"),
    # GnuTLS drops certificates that are not CAs from its trust list; certkit (like SecTrust) trusts a leaf that
    # is itself an anchor (DESIGN section 3, normalisation).
    Rule("leaf-is-anchor", r"^chain\.anchor-is-leaf$", ("gnutls",) + PYCA),
    # A leaf that is itself the anchor and names itself as issuer without being self-signed: the anchor is trusted
    # as given; OpenSSL takes a self-issued certificate for a root and looks for its signer.
    AllTagsRule("leaf-anchor-self-issued", [r"^chain\.anchor-is-leaf$", r"^chain\.leaf-is-ca-issuing$"], OPENSSL_ALL),
    # A self-issued intermediate (the root's name, its own key) made an anchor: OpenSSL takes it for a root and
    # looks for its signer (-partial_chain notwithstanding).
    AllTagsRule("openssl-self-issued-anchor", [r"^chain\.self-issued-int$", r"^anchor@int$"], OPENSSL_ALL),
    # RFC 5280 section 6.1.4 (l): a self-issued intermediate does not count against pathLenConstraint; GnuTLS's
    # certtool counts it, and pyca then tries the root as the leaf's issuer.
    AllTagsRule("self-issued-not-counted", [r"^chain\.self-issued-int$", r"^bc\.root-pathlen0@root$"], ("gnutls",) + PYCA),
    # A CRL with a bad signature beside a valid CRL of the same issuer: certkit uses the valid one (the bad one can
    # neither revoke nor mask); OpenSSL picks the bad one and fails.
    Rule("bad-crl-beside-valid", r"^crl\.(extra-bad-crl-masking|two-crls-bad-first)$", OPENSSL_ALL, detail=r"CRL signature failure"),
    # The presented chain runs past the anchor to the root: certkit's path ends at the first anchor; certtool walks
    # the presented list up to a certificate it cannot place.
    AllTagsRule("presented-beyond-anchor", [r"^chain\.anchor-is-int$", r"^chain\.with-root$"], ("gnutls",)),
    # An empty permitted dNSName in an intermediate under a root permitting one name: certkit (and OpenSSL) apply
    # each CA's subtrees on their own; GnuTLS intersects them and refuses. pyca refuses the empty constraint.
    AllTagsRule("gnutls-nc-empty-dns-intersection", [r"^nc\.permit-dns-empty@int", r"^nc\.permit-dns-ok@root$"],
                ("gnutls",) + PYCA),
    # No dNSName in the leaf, a host name in its CN: the apple and rfc5280 profiles never read the CN (names come
    # from the subjectAltName), so DNS name constraints do not apply to it; OpenSSL and GnuTLS constrain the CN.
    AllTagsRule("cn-not-constrained", [r"^san\.no-dns-cn-host@leaf$", r"^nc\."], OPENSSL_ALL + ("gnutls",),
                profiles={"apple", "rfc5280"}),
    # A dNSName SAN that is not a valid host name (an IP literal, a NUL) beside an excluded DNS subtree it does not
    # fall in: the apple profile compares names as trustd does; rfc5280 and webpki refuse such a SAN under any
    # DNS constraint (rfc5280.name-constraints-valid-names), as pyca does.
    AllTagsRule("apple-invalid-san-excluded", [r"^nc\.exclude-", r"^host\.(dns:san-nul|ip:.*/both)@leaf$"], PYCA,
                profiles={"apple"}),
    # directoryName constraints: certkit implements them (RFC 5280 section 4.2.1.10); pyca refuses the extension
    # and GnuTLS refuses every certificate below an excluded directoryName (GnuTLSKnownDeviations).
    Rule("directoryname-constraints", r"^nc\.(exclude|permit)-dirname-", ("gnutls",) + PYCA),
    # Apple's serverAuth requirement covers leaves issued from 2019-07-01 on; before that, anyExtendedKeyUsage
    # allows TLS (certkit.eku-purpose), as trustd accepts it. OpenSSL's sslserver purpose and pyca want serverAuth.
    AllTagsRule("apple-pre-2019-any-eku", [r"^validity\.notbefore-2019-06-30", r"^eku\.leaf-any-only@leaf$"],
                OPENSSL_ALL + PYCA, profiles={"apple"}),
    # A leaf that is itself the anchor is not held to the leaf rules of the SSL profiles (apple.server-eku): with
    # anyExtendedKeyUsage alone it is trusted; OpenSSL's sslserver purpose wants serverAuth.
    AllTagsRule("anchor-leaf-any-eku", [r"^chain\.anchor-is-leaf$", r"^eku\.leaf-any-only@leaf$"], OPENSSL_ALL,
                profiles={"apple"}),
    # A leaf that is itself the anchor is the whole path's trust anchor: it is not checked against CRLs (RFC 5280
    # section 6.1: the anchor is not part of the path validated); OpenSSL -crl_check_all still looks for its CRL.
    AllTagsRule("anchor-not-revocation-checked", [r"^chain\.anchor-is-leaf$", r"^crl\."], OPENSSL_ALL),
    # The path ends at the first anchor (SecTrust, RFC 5280 section 6.1.1 (d)): certificates above it are not read.
    AboveAnchorRule("above-the-anchor", r".", ALL),
    # RFC 5280 section 4.1.2.5: the validity period runs from notBefore through notAfter, inclusive; OpenSSL
    # treats the notAfter second itself as expired.
    Rule("notafter-inclusive", r"^validity\.notafter-equals-at@", OPENSSL_ALL),
    # trustd's SecDNSMatch ignores one trailing dot on the host (the absolute form of the same DNS name); the
    # rfc5280 and webpki profiles refuse such a host (rule certkit.host-trailing-dot), as every reference does.
    # keyCertSign in a leaf that is not a CA: a duty of the issuing CA (RFC 5280 section 4.2.1.3) that trustd does
    # not check; the rfc5280 and webpki profiles enforce it (rfc5280.key-cert-sign-requires-ca).
    Rule("keycertsign-without-ca", r"^ku\.leaf-all@leaf$", STRICT + PYCA, profiles={"apple"}),
    # The Netscape certificate type extension (obsolete since 2000s) is not processed by certkit, trustd, GnuTLS
    # or pyca; OpenSSL's sslserver purpose still honours it.
    Rule("netscape-cert-type", r"^ext\.add:ns-cert-type-[a-z]+@", OPENSSL_ALL),
    # RFC 8410 EdDSA keys (and RFC 3279 DSA) under the rfc5280 profile; pyca's verifier is a Web PKI verifier.
    Rule("rfc5280-eddsa", r"^key\.type:(ed25519|ed448|dsa)@", PYCA, profiles={"rfc5280"}),
    # anyExtendedKeyUsage alone in the leaf: RFC 5280 section 4.2.1.12 reads it as "no restriction"; OpenSSL's
    # sslserver purpose and pyca want serverAuth itself (as the apple and webpki profiles do).
    Rule("rfc5280-any-eku", r"^eku\.leaf-any-only@leaf$", OPENSSL_ALL + PYCA + ("gnutls",), profiles={"rfc5280"}),
    Rule("apple-host-trailing-dot", r"^host\.dns:host-trailing-dot@leaf$", ALL, profiles={"apple"}),
    # The core's reading of an IPv4-mapped IPv6 subtree (it constrains the IPv4 address it maps, issue 10 D): by
    # default (the core alone) both backends accept and the OpenSSL references refuse; in the audit mode it is the
    # backend disagreement openssl-ip-family below.
    Rule("openssl-ip-family-reference", r"^nc\.permit-ip-v4mapped", OPENSSL_ALL),

    # Backend disagreements where one backend's library cannot read the input and that backend fails closed
    # (the other trusts, as the core does). kind="disagreement": the two certkit backends differ.
    # GnuTLS refuses to import an anchor whose inner/outer signature algorithms differ, whose signature value is
    # empty or has unused bits, or whose signature algorithm it does not know; certkit trusts an anchor as given.
    Rule("gnutls-unimportable-anchor",
         r"^(sigalg\.(mismatch|oid)|sig\.(empty|unused-bits|truncate))[^@]*@(?P<anchor>root|int\d?|leaf)$",
         ("certkit-backends",), kind="disagreement"),
    # GnuTLS matches issuer names byte for byte; the core (and OpenSSL, and trustd) compare normalised names.
    Rule("gnutls-name-bytes", r"^name\.issuer-(case|whitespace|string-type)@", ("certkit-backends",), kind="disagreement"),
    # OpenSSL cannot decode a certificate whose name holds an invalid UTF8String; the core displays it escaped.
    Rule("openssl-bad-utf8", r"^name\.subject-bad-utf8@", ("certkit-backends",), kind="disagreement"),
    # An IPv4-mapped IPv6 subtree constrains the IPv4 address it maps (one name form across families, issue 10 D);
    # OpenSSL compares address families and rejects.
    Rule("openssl-ip-family", r"^nc\.permit-ip-v4mapped", ("certkit-backends",), kind="disagreement"),
    # GnuTLS applies DNS name constraints to the subject CN of a leaf without dNSName (see cn-not-constrained).
    AllTagsRule("gnutls-nc-on-cn", [r"^san\.no-dns-cn-host@leaf$", r"^nc\."], ("certkit-backends",), kind="disagreement",
                profiles={"apple", "rfc5280"}),
    # GnuTLS's path verifier cannot tell a self-issued intermediate from the same-named anchor above it once an
    # identifier is missing, and fails closed; the core links them by key.
    AllTagsRule("gnutls-nc-empty-dns-intersection-backend", [r"^nc\.permit-dns-empty@int", r"^nc\.permit-dns-ok@root$"],
                ("certkit-backends",), kind="disagreement"),
    Rule("gnutls-self-issued-same-name", r"^chain\.self-issued-int$", ("certkit-backends",), kind="disagreement"),
]


# Rules that explain a web-PKI rule certkit's apple and rfc5280 profiles do not have: under `--profile webpki`
# they explain nothing, so those differences become findings again.
WEBPKI_ONLY = {
    "ca-aki-ski-presence", "aki-ski-criticality", "ca-bc-criticality", "pathlen-on-non-ca", "ca-ku-presence",
    "ku-criticality", "webpki-serial-length", "webpki-eku-critical", "webpki-nc-on-leaf", "webpki-nc-empty",
    "webpki-critical-cdp", "webpki-leaf-is-ca", "webpki-san-criticality", "empty-subject-san-noncritical",
    "utctime-before-2050", "webpki-sigalg-allowlist",
}
for _rule in RULES:
    if _rule.id in WEBPKI_ONLY and _rule.profiles is None:
        _rule.profiles = {"apple", "rfc5280"}


def explain(tags, rejecting, profile, kind="accept", details=None):
    """The ids of the rules explaining every rejecting reference, or None."""
    used = []
    details = details or {}
    for r in rejecting:
        hit = next((rule for rule in RULES if rule.kind == kind and r in rule.references and rule.applies(tags, profile)
                    and (rule.detail is None or rule.detail.search(details.get(r, "")))), None)
        if hit is None:
            return None
        if hit.id not in used:
            used.append(hit.id)
    return used


def categorise(case, ck, ref, rejecting, profile):
    """(category, explaining rule ids or None)."""
    code = ck["exit"]
    if code == 2:
        return "usage-error", None
    if code == "timeout" or code not in (0, 1, 3, 10, 11, 12, 13):
        return "crash", None
    if code == 3:
        used = explain(case.mutations, ["certkit-backends"], profile, kind="disagreement")
        if used:
            return "explained-disagreement", ",".join(used)
        return ("backend-disagreement" if ck.get("trusting") else "disagreement-both-reject"), None
    if code == 13:
        return "other-error", None
    if code != 0:
        if not ref:
            return "certkit-rejects", None
        return ("agree-reject" if rejecting else "certkit-stricter"), None
    if not rejecting:
        return "agree-accept", None
    used = explain(case.mutations, rejecting, profile, details={k: v["detail"] for k, v in ref.items()})
    if used:
        return "explained-accept", ",".join(used)
    return "unexplained-accept", None
