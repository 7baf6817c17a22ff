"""Categories of a case's outcome, and the machine-readable form of Tests/Differential/known-differences.md.

A case where certkit accepts and a reference rejects is *explained* when, for every rejecting reference, a
rule below names that reference and matches one of the case's mutation tags (and the profile in force). Each
rule's id is a row of the known-differences table; keep the two in step."""

import re

# backend-disagreement: one certkit backend trusts the chain and the other does not (the severe kind);
# disagreement-both-reject: both reject, with different results or checks (exit 3 all the same).
FINDINGS = ["unexplained-accept", "backend-disagreement", "disagreement-both-reject", "crash", "ablation-unexplained"]
SAVED = FINDINGS + ["other-error"]
EXPLAINED = ["explained-accept", "explained-disagreement"]
# What an ablated re-run (an explained case without one of its mutations) must never be.
ABLATION_FINDINGS = ["unexplained-accept", "backend-disagreement"]
ORDER = ["usage-error", "agree-accept", "agree-reject", "certkit-rejects", "certkit-stricter", "explained-accept",
         "explained-disagreement", "other-error", "generator-error", "not-ablatable"] + FINDINGS


def reasons(reference, detail):
    """A reference's rejection split into its separate reasons: one per `openssl verify` error line (the closing
    "verification failed" line is not a reason), one per GnuTLS status sentence, pyca's one message. A rule must
    explain every reason of a rejecting reference, so that a second, unrelated error is never covered by the
    first one's explanation."""
    detail = detail or ""
    if reference.startswith("openssl"):
        out = []
        for part in detail.split(" | "):
            part = part.strip()
            if not part or re.search(r"^error \S+: verification failed$", part):
                continue
            out.append(part)
        # OpenSSL's error-queue lines ("40B7…:error:0200008A:rsa routines:…") detail the verify errors listed beside
        # them; when there are verify errors, those are the reasons.
        verify = [x for x in out if re.search(r"^error \d+ at \d+ depth lookup: ", x)]
        if verify:
            out = [x for x in out if not re.search(r"^[0-9A-F]{8,}:error:", x)]
        return out or [detail]
    if reference == "gnutls":
        out = []
        for part in detail.split(" | "):
            m = re.search(r"verification output: Not verified\.(.*)$", part)
            if m:
                # "The certificate is NOT trusted." is the verdict itself, not a reason; when it is all certtool
                # says, GnuTLS marked a certificate invalid without a reason flag (it could not read that
                # certificate's signature algorithm, or its issuer's keyUsage): only a row naming such a mutation,
                # on a certificate GnuTLS judges, explains it (`gnutls-unreadable-beyond-anchor`).
                given = [x.strip(" .") + "." for x in m.group(1).split(". ") if x.strip(" .")]
                out += [x for x in given if x != "The certificate is NOT trusted."] or given
            elif part.strip():
                # certtool's output when it stopped before verifying: its error lines, not its progress lines nor
                # the library's log lines ("|<1>| There was a non-CA certificate in the trusted list: …").
                out += [line.strip() for line in part.splitlines()
                        if line.strip() and not line.strip().startswith(("Loaded CAs", "|<"))]
        return out or [detail]
    return [detail]


class Rule:
    """One row of known-differences.md: the mutation tags that can cause a difference, the references it explains,
    and, for each of them, the reason that reference gives (`cause`: reference or family -> regex; "openssl" covers
    openssl-strict too). A rule explains one reason of a rejecting reference only when the case has a matching tag,
    the profile applies and the reason itself matches the cause: a rejection for another reason (a second mutation,
    an expired leaf) is never covered by a tag that merely happens to be present."""

    def __init__(self, rid, tags, references, cause, profiles=None, kind="accept"):
        self.id = rid
        self.tags = re.compile(tags)
        self.references = set(references)
        self.cause = {k: re.compile(v) for k, v in cause.items()}
        missing = [r for r in self.references if self.cause_for(r) is None]
        if missing:
            raise ValueError("rule %s names %s without a cause" % (rid, ", ".join(sorted(missing))))
        self.profiles = profiles  # None: any profile; else a set of profile names (None = default "apple")
        self.kind = kind  # "accept": certkit accepts, the reference rejects; "disagreement": certkit's backends differ

    def cause_for(self, reference):
        return self.cause.get(reference) or self.cause.get(reference.split("-")[0])

    def explains(self, reference, reason):
        c = self.cause_for(reference)
        return c is not None and c.search(reason) is not None

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
        if "chain.anchor-is-leaf" in tags:
            anchors.append(self.RANK["leaf"])
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


class GnuTLSBeyondAnchorRule(Rule):
    """GnuTLS's refusal with no reason ("The certificate is NOT trusted." alone) when an intermediate is an anchor
    beside the root and the presented chain carries it (chain.anchor-root-and-int): certtool does not stop at that
    anchor but checks it, and every certificate above it, against its issuer up to the root, and marks a
    certificate invalid without a reason flag when it cannot read that certificate's signature algorithm (an
    unknown OID, RSA-PSS parameters it refuses) or its issuer's keyUsage. certkit's path ends at the anchor.

    Explained only when such a mutation is on a certificate certtool judges there: a signature algorithm of the
    anchor or of an intermediate above it (never the root's, which GnuTLS takes from its trust list unchecked), or
    a keyUsage GnuTLS cannot parse (every ext.malformed variant but nonminimal-length, which it reads) in a
    certificate above the anchor. The same refusal with the anchor alone in the trust list, or without the anchor
    in the presented chain, is a finding (certtool verifies those)."""
    RANK = AboveAnchorRule.RANK
    # The chain.* variants that set the anchors or the presented list; the last of them decides the shape.
    SHAPES = re.compile(r"^chain\.(anchor-is-int|leaf-only-anchor-is-int|anchor-int-no-bc|anchor-is-leaf|"
                        r"anchor-root-and-int|no-int)$")
    # The signature algorithms certtool cannot read (an OID it does not know, RSA-PSS parameters it refuses), as
    # measured on every seed PKI; the others give their own reasons (insecure algorithm, invalid signature).
    SIGALG = re.compile(r"^sigalg\.(oid:(unknown|unknown-null|sm2-sm3|rsaEncryption|md4WithRSA|oiw-md4WithRSA|"
                        r"oiw-md5WithRSA|oiw-sha1|oiw-shaWithRSA)/[a-z0-9-]+|"
                        r"pss:(absent|defaults-sha1|explicit-defaults|params-null|trailer2))@(?P<t>[a-z0-9]+)$")
    KU = re.compile(r"^ext\.malformed:ku/(?!nonminimal-length@)[a-z-]+@(?P<t>[a-z0-9]+)$")

    def applies(self, tags, profile):
        if self.profiles is not None and (profile or "apple") not in self.profiles:
            return False
        shapes = [i for i, t in enumerate(tags) if self.SHAPES.search(t)]
        if not shapes or tags[shapes[-1]] != "chain.anchor-root-and-int":
            return False
        i = shapes[-1]
        anchor = tags[i - 1][len("anchor@"):] if i > 0 and tags[i - 1].startswith("anchor@") else None
        if anchor not in self.RANK:
            return False
        first, root = self.RANK[anchor], self.RANK["root"]
        for t in tags:
            m = self.SIGALG.search(t)
            if m and m.group("t") in self.RANK and first <= self.RANK[m.group("t")] < root:
                return True
            m = self.KU.search(t)
            if m and m.group("t") in self.RANK and self.RANK[m.group("t")] > first:
                return True
        return False


class DistractorRule(Rule):
    """A same-name distractor (another key) beside the real issuer: pyca reports only its last candidate's failure
    ("signature does not match"), which hides why the real path failed. Explained only when another row explains a
    pyca rejection for one of the case's other tags (the real path's own reason), never on its own."""

    def applies(self, tags, profile):
        if not super().applies(tags, profile):
            return False
        others = [t for t in tags if not self.tags.search(t)]
        return any(rule is not self and rule.kind == "accept" and "pyca" in rule.references
                   and not isinstance(rule, DistractorRule) and rule.applies(others, profile) for rule in RULES)


class AllTagsRule(Rule):
    """A rule that applies only when every one of its patterns matches some tag of the case."""

    def __init__(self, rid, patterns, references, cause, **kw):
        super().__init__(rid, patterns[0], references, cause, **kw)
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


def ossl(*codes):
    """An `openssl verify` error line with one of these X509_V_ERR codes, at any depth."""
    return r"^error (%s) at \d+ depth lookup: " % "|".join(str(c) for c in codes)


def ossl_above_leaf(*codes):
    return r"^error (%s) at [1-9]\d* depth lookup: " % ("|".join(str(c) for c in codes) if codes else r"\d+")


# openssl could not load a certificate file at all (the decoder's error-queue lines).
OSSL_LOAD = r":error:[0-9A-F]+:(STORE|asn1 encoding|x509|x509 certificate|PEM|DECODER) routines|^Error loading file "


def gnu(*sentences):
    """One sentence of certtool's "Not verified." status, or one of its load errors."""
    return r"^(%s)" % "|".join(re.escape(x) for x in sentences)


G_ISSUER = "The certificate issuer is unknown"
G_NOT_CA = "The certificate issuer is not a CA"
G_SIG = "The signature in the certificate is invalid"
G_INSECURE = "The certificate chain uses insecure algorithm"
G_CRIT = "The certificate contains an unknown critical extension"
G_PURPOSE = "The certificate chain does not match the intended purpose"
G_NAME = "The name in the certificate does not match the expected"
G_CONSTRAINTS = "The certificate chain violates the signer's constraints"
G_LOAD = ("gnutls_x509_trust_add_trust_file", "error parsing CRTs", "Error in the certificate",
          "gnutls_x509_crt_get_issuer_dn")
# certtool cannot read an empty issuer name (a certificate whose issuer's subject is empty)
G_NO_ISSUER_DN = "gnutls_x509_crt_get_issuer_dn: The requested data were not available"
G_NOT_YET_VALID = "The certificate chain uses not yet valid certificate"
G_EXPIRED = "The certificate chain uses expired certificate"


def py(*fragments):
    """pyca's message contains one of these fragments."""
    return "|".join(re.escape(f) for f in fragments)


# pyca could not parse a certificate's signature fields (the anchor's, for anchor-self-signature).
PY_SIG_PARSE = r"ParseError \{ kind: \w+, location: \[(\"Certificate::signature(_alg)?\"|\"Certificate::tbs_cert\", \"TbsCertificate::signature_alg\")"

RULES = [
    # The anchor is trusted as given: its own signature (algorithm, parameters, value) is never checked.
    # OpenSSL decides "self-signed" by checking that signature's algorithm against the key, and then looks for
    # the anchor's issuer; pyca and GnuTLS refuse an anchor they cannot parse or whose algorithm they ban.
    Rule("anchor-self-signature", r"^(sigalg|sig)\.[^@]*@(?P<anchor>root|int\d?|leaf)$", ALL,
         cause={"openssl": ossl(2, 20, 7, 78, 68, 4) + "|" + OSSL_LOAD,
                "gnutls": gnu(G_ISSUER, G_SIG, G_INSECURE, G_NOT_CA, *G_LOAD),
                "pyca": PY_SIG_PARSE + "|" + py("mismatch between signatureAlgorithm and SPKI algorithm",
                                                "Forbidden signature algorithm", "unsupported signature algorithm")}),
    # RFC 5280 section 4.2.1.x duties of the issuing CA that section 6 path validation does not check;
    # openssl -x509_strict and pyca's web-PKI profile enforce them. Absence only: a malformed AKI/SKI is not a
    # missing one.
    Rule("ca-aki-ski-presence", r"^ext\.remove:(aki|ski)@", STRICT + PYCA,
         cause={"openssl": ossl(85, 86),
                "pyca": r"invalid extension: 2\.5\.29\.(35|14): Certificate is missing required extension"}),
    # OpenSSL does not list AKI, SKI or AIA among the extensions it handles when critical; certkit (and trustd,
    # and GnuTLS) process them, and "MUST mark non-critical" is a duty of the issuing CA.
    Rule("aki-ski-criticality", r"^ext\.(criticality:(aki|ski|aia)/critical|add:(aki|ski|aia)-critical)@",
         OPENSSL_ALL + PYCA, profiles={"apple"},
         cause={"openssl": ossl(34),
                "pyca": r"invalid extension: (2\.5\.29\.35|2\.5\.29\.14|1\.3\.6\.1\.5\.5\.7\.1\.1): Certificate extension has incorrect criticality"}),
    # OpenSSL stops reading a certificate's extension criticality at the first critical extension it does not handle
    # (AKI, SKI, AIA): a critical basicConstraints placed after it is then taken for a non-critical one
    # (-x509_strict error 89) although it is critical.
    AllTagsRule("openssl-bc-criticality-after-unhandled",
                [r"^bc\.leaf-ca-true[a-z0-9-]*@leaf$", r"^ext\.(criticality:(aki|ski|aia)/critical|add:(aki|ski|aia)-critical)@leaf$"],
                STRICT, profiles={"apple"}, cause={"openssl": ossl(89)}),
    Rule("ca-bc-criticality", r"^(ext\.criticality:bc/(noncritical|explicit-false)|bc\.(int|root)-noncritical)" + CA,
         STRICT + PYCA,
         cause={"openssl": ossl(89), "pyca": r"invalid extension: 2\.5\.29\.19: Certificate extension has incorrect criticality"}),
    Rule("pathlen-on-non-ca", r"^bc\.(leaf-pathlen|int-ca-false-pathlen)@", STRICT + PYCA, profiles={"apple"},
         cause={"openssl": ossl(80, 81), "pyca": py("pathLenConstraint", "pathlen")}),
    Rule("ca-ku-presence", r"^(ext\.remove:ku|ku\.(int|root)-remove)" + CA, STRICT + PYCA,
         cause={"openssl": ossl(92, 81), "pyca": r"invalid extension: 2\.5\.29\.15: Certificate is missing required extension"}),
    Rule("ku-criticality", r"^(ext\.criticality:ku/noncritical|ku\.[a-z]+-noncritical)@", PYCA,
         cause={"pyca": r"invalid extension: 2\.5\.29\.15: Certificate extension has incorrect criticality"}),
    # Encodings of DEFAULT values (BOOLEAN FALSE) that X.690 DER forbids but Apple, OpenSSL and GnuTLS accept.
    # The cause is the encoded DEFAULT itself; what the extension being non-critical does is other rows' business.
    Rule("explicit-default-false", r"^(ext\.criticality:[a-z]+/explicit-false|bc\.leaf-explicit-false)@", PYCA,
         cause={"pyca": r"kind: EncodedDefault, location: \[.*(\"Extension::critical\"|\"BasicConstraints::ca\")|DEFAULT value was explicitly encoded"}),
    # Web PKI (CA/B Forum BR) certificate-profile rules that Apple's and RFC 5280's path validation do not have.
    Rule("webpki-serial-length", r"^serial\.(40-bytes|21-bytes|zero|negative|leading-ff)@", PYCA,
         cause={"pyca": py("serial number", "certificate must have a serial between 1 and 20 octets")}),
    Rule("webpki-eku-critical", r"^(eku\.leaf-critical|ext\.criticality:eku/critical)@", PYCA,
         cause={"pyca": r"invalid extension: 2\.5\.29\.37: Certificate extension has incorrect criticality"}),
    Rule("webpki-nc-on-leaf", r"^nc\.on-leaf@leaf$", PYCA,
         cause={"pyca": r"invalid extension: 2\.5\.29\.30: Certificate contains prohibited extension"}),
    Rule("webpki-nc-empty", r"^nc\.empty(\+ip-host)?@", PYCA,
         cause={"pyca": py("nameConstraints must have non-empty permittedSubtrees or excludedSubtrees")}),
    Rule("webpki-critical-cdp", r"^(ext\.add:cdp-critical|ext\.criticality:cdp/critical)@", PYCA,
         cause={"pyca": r"invalid extension: 2\.5\.29\.31: certificate contains unaccounted-for critical extensions"}),
    Rule("webpki-leaf-is-ca", r"^bc\.leaf-ca-true", PYCA,
         cause={"pyca": py("basicConstraints.cA must not be asserted in an EE certificate",
                           "EE keyUsage must not assert keyCertSign")}),
    # RFC 5280 section 6.1 policy processing: openssl verify -policy_check (user-initial-policy-set anyPolicy) is
    # the oracle for policy.* cases and for added critical policy extensions. When it accepts, the path is valid
    # and GnuTLS/pyca reject only because they treat the policy extensions as unknown critical extensions -- and
    # only that reason is explained.
    Rule("policy-gnutls-pyca-unsupported",
         r"^(policy\.|ext\.add:(policy-constraints|inhibit-any|policy-mappings)-critical@)", ("gnutls",) + PYCA,
         cause={"gnutls": gnu(G_CRIT),
                "pyca": r"invalid extension: 2\.5\.29\.(32|33|36|54): certificate contains unaccounted-for critical extensions"}),
    # A critical certificatePolicies extension on its own cannot change the outcome unless a policy is required;
    # pyca and GnuTLS treat it as an unknown critical extension.
    Rule("critical-certificate-policies", r"^ext\.(add:cp-critical-[a-z-]+|criticality:cp/critical)@", ("gnutls",) + PYCA,
         cause={"gnutls": gnu(G_CRIT),
                "pyca": r"invalid extension: 2\.5\.29\.32: certificate contains unaccounted-for critical extensions"}),
    # RFC 5280 section 7.1 compares names after normalisation (case, spaces, string type); pyca and GnuTLS
    # compare the bytes, so they find no issuer.
    Rule("name-normalisation", r"^name\.issuer-(case|string-type|whitespace)@", ("gnutls",) + PYCA,
         cause={"gnutls": gnu(G_ISSUER), "pyca": py("all candidates exhausted with no interior errors")}),
    Rule("webpki-san-criticality", r"^(ext\.criticality:san/critical|san\.empty-subject-critical)@leaf$", PYCA,
         cause={"pyca": py("EE subjectAltName MUST NOT be critical when subject is nonempty")}),
    Rule("empty-subject-san-noncritical", r"^san\.empty-subject-noncritical@leaf$", STRICT + PYCA,
         cause={"openssl": r"^error \d+ at 0 depth lookup: .*(?i:subject|subjectAltName|SAN)",
                "pyca": r"(?i)subjectAltName|2\.5\.29\.17"}),
    Rule("utctime-before-2050", r"^validity\.generalized-pre2050@", STRICT + PYCA,
         cause={"openssl": ossl(13, 14) + r"|^error \d+ at \d+ depth lookup: .*(?i:time)",
                "pyca": py("validity dates between 1950 and 2049 must be UtcTime")}),
    Rule("webpki-sigalg-allowlist", r"^sigalg\.oid:(sha224WithRSA|ecdsa-with-SHA224)/sha224@", PYCA,
         cause={"pyca": py("Forbidden signature algorithm")}),
    Rule("rsa-params-absent", r"^sigalg\.params:absent@", PYCA,
         cause={"pyca": py("Forbidden signature algorithm")}),
    Rule("webpki-nc-empty-dns", r"^nc\.permit-dns-empty", PYCA, cause={"pyca": py("malformed DNS name constraint")}),
    # A dNSName subtree written with a leading period (".example.com", the URI/rfc822Name form): the apple and
    # rfc5280 profiles read it as "below example.com", as OpenSSL and GnuTLS do; pyca refuses it as malformed.
    # Under webpki it stays a finding.
    Rule("dns-constraint-leading-dot", r"^nc\.permit-dns-leading-dot(\+ip-host)?@", PYCA, profiles={"apple", "rfc5280"},
         cause={"pyca": r"malformed DNS name constraint: \."}),
    # pyca's DNSName refuses host names that are not LDH (RFC 1123) before verifying anything.
    Rule("pyca-host-syntax", r"^host\.dns:(hyphen-label|label-64|underscore|double-dot)@leaf$", PYCA, profiles={"apple"},
         cause={"pyca": r"^ValueError: invalid domain name"}),
    # The anchor is trusted as given (RFC 5280 section 6.1.1 (d): its name and key): a v1 anchor is fine.
    Rule("anchor-v1", r"^(ext\.field:(v1-no-exts|explicit-v1|v1-with-exts|uids-v1)@root|chain\.anchor-v1-root)$",
         STRICT + PYCA,
         cause={"openssl": ossl(79),
                "pyca": py("certificate must be an X509v3 certificate") + r"|kind: EncodedDefault, location: \[\"Certificate::tbs_cert\", \"TbsCertificate::version\"\]"}),
    # The AKI is an identification hint (RFC 5280 section 4.2.1.1), not a path-validation input; OpenSSL
    # refuses an issuer whose name/serial disagree with authorityCertIssuer/-SerialNumber, pyca wants a keyIdentifier.
    Rule("aki-is-a-hint", r"^ext\.add:aki-issuer-serial@", ALL,
         cause={"openssl": ossl(2, 20, 30, 31), "gnutls": gnu(G_ISSUER),
                "pyca": py("authorityKeyIdentifier must contain keyIdentifier")}),
    # anyExtendedKeyUsage in a CA certificate does not restrict the chain (Apple's intermediate EKU rule);
    # OpenSSL and GnuTLS require serverAuth itself in every CA's EKU.
    Rule("ca-eku-any", r"^eku\.(int|root)-any@", OPENSSL_ALL + ("gnutls",), profiles={"apple", "rfc5280"},
         cause={"openssl": ossl_above_leaf(26), "gnutls": gnu(G_PURPOSE)}),
    # openssl -crl_check_all wants a CRL in scope for every certificate; certkit checks revocation against the
    # CRLs it is given and needs none (a CRL of another issuer or scope does not apply). Only that one error is
    # explained: an invalid CA, a purpose or a path length error beside it stays a finding.
    Rule("openssl-crl-coverage", r"^(crl|chain)\.", OPENSSL_ALL, cause={"openssl": ossl(3)}),
    # GnuTLS drops certificates that are not CAs from its trust list; certkit (like SecTrust) trusts a leaf that
    # is itself an anchor.
    Rule("leaf-is-anchor", r"^chain\.anchor-is-leaf$", ("gnutls",) + PYCA,
         cause={"gnutls": gnu(G_ISSUER, G_NOT_CA), "pyca": py("all candidates exhausted with no interior errors",
                                                              "basicConstraints.cA must not be asserted",
                                                              "certificate must be an X509v3 certificate")}),
    # A leaf that is itself the anchor and names itself as issuer without being self-signed: the anchor is trusted
    # as given; OpenSSL takes a self-issued certificate for a root and looks for its signer.
    AllTagsRule("leaf-anchor-self-issued", [r"^chain\.anchor-is-leaf$",
                                            r"^(chain\.leaf-is-ca-issuing|name\.issuer-same-as-subject@leaf)$"], OPENSSL_ALL,
                cause={"openssl": ossl(2, 20, 7, 19)}),
    # A self-issued intermediate (the root's name, its own key) made an anchor: OpenSSL takes it for a root and
    # looks for its signer (-partial_chain notwithstanding).
    AllTagsRule("openssl-self-issued-anchor", [r"^chain\.self-issued-int$", r"^anchor@int$"], OPENSSL_ALL,
                cause={"openssl": ossl(2, 20, 7, 19)}),
    # A self-issued intermediate (the root's name, its own key, signed by the root) without a key identifier to
    # tell it from the root: OpenSSL and GnuTLS take it for self-signed (no signature check) and end the chain
    # there; certkit links certificates by signature (RFC 5280 section 6.1: self-issued is not self-signed).
    AllTagsRule("self-issued-without-key-identifier", [r"^chain\.self-issued-int$", r"^ext\.remove:(aki|ski)@(int|root)$"],
                OPENSSL_ALL + ("gnutls",), cause={"openssl": ossl(19, 2, 20), "gnutls": gnu(G_ISSUER)}),
    # RFC 5280 section 6.1.4 (l): a self-issued intermediate does not count against pathLenConstraint; GnuTLS's
    # certtool counts it, and pyca then tries the root as the leaf's issuer.
    AllTagsRule("self-issued-not-counted", [r"^chain\.self-issued-int$", r"^bc\.root-pathlen0@root$"], ("gnutls",) + PYCA,
                cause={"gnutls": gnu(G_NOT_CA, G_ISSUER, G_CONSTRAINTS),
                       "pyca": py("all candidates exhausted", "path length", "pathLenConstraint", "signature does not match")}),
    # A CRL with a bad signature beside a valid CRL of the same issuer: certkit uses the valid one (the bad one can
    # neither revoke nor mask); OpenSSL picks the bad one and fails.
    # certtool applies a CRL by its issuer name without verifying its signature; certkit takes a CRL whose
    # authorityKeyIdentifier names another key, and whose signature this issuer's key does not verify, for another
    # issuer key's CRL and leaves it out (a CRL that names this issuer's key and fails its signature is a failure).
    AllTagsRule("gnutls-crl-of-another-key", [r"^crl\.aki-mismatch$", r"^crl\.(wrong-key|bad-sig)$"], ("gnutls",),
                cause={"gnutls": gnu("The certificate chain is revoked")}),
    # The root's CRL lists the leaf's serial; the intermediate is self-issued (the root's name, its own key), so by
    # name the root's CRL covers the leaf: certtool applies it unverified; certkit needs the CRL signed by the leaf's
    # issuer's key (RFC 5280 section 6.3.3 (f)) and leaves it out.
    AllTagsRule("gnutls-crl-by-name-self-issued", [r"^crl\.root-crl-lists-leaf", r"^chain\.self-issued-int$"], ("gnutls",),
                cause={"gnutls": gnu("The certificate chain is revoked")}),
    Rule("bad-crl-beside-valid", r"^crl\.(extra-bad-crl-masking|two-crls-bad-first)$", OPENSSL_ALL,
         cause={"openssl": ossl(8)}),
    # The presented chain runs past the anchor to the root: certkit's path ends at the first anchor; certtool walks
    # the presented list up to a certificate it cannot place.
    AllTagsRule("presented-beyond-anchor", [r"^chain\.anchor-is-int$", r"^chain\.with-root$"], ("gnutls",),
                cause={"gnutls": gnu(G_ISSUER)}),
    # An empty permitted dNSName in an intermediate under a root permitting one name: certkit (and OpenSSL) apply
    # each CA's subtrees on their own; GnuTLS intersects them and refuses. pyca refuses the empty constraint.
    AllTagsRule("gnutls-nc-empty-dns-intersection", [r"^nc\.permit-dns-empty@int", r"^nc\.permit-dns-ok@root$"],
                ("gnutls",) + PYCA, cause={"gnutls": gnu(G_CONSTRAINTS), "pyca": py("malformed DNS name constraint")}),
    # The same with the empty permitted dNSName in the root and a permitted dNSName (any spelling) in the intermediate.
    AllTagsRule("gnutls-nc-empty-dns-intersection-root",
                [r"^nc\.permit-dns-empty(\+ip-host)?@(root|int\d?)$", r"^nc\.permit-dns-(?!empty)[a-z0-9-]+(\+ip-host)?@(root|int\d?)$"],
                ("gnutls",) + PYCA, cause={"gnutls": gnu(G_CONSTRAINTS), "pyca": py("malformed DNS name constraint")}),
    # No dNSName in the leaf, a host name in its CN: the apple and rfc5280 profiles never read the CN (names come
    # from the subjectAltName), so DNS name constraints do not apply to it; OpenSSL and GnuTLS constrain the CN.
    AllTagsRule("cn-not-constrained", [r"^san\.no-dns-cn-host@leaf$", r"^nc\."], OPENSSL_ALL + ("gnutls",),
                profiles={"apple", "rfc5280"}, cause={"openssl": ossl(47, 48), "gnutls": gnu(G_CONSTRAINTS)}),
    # A dNSName SAN that is not a valid host name (an IP literal, a NUL) beside an excluded DNS subtree it does not
    # fall in: the apple profile compares names as trustd does; rfc5280 and webpki refuse such a SAN under any
    # DNS constraint (rfc5280.name-constraints-valid-names), as pyca does.
    AllTagsRule("apple-invalid-san-excluded", [r"^nc\.exclude-", r"^host\.(dns:san-nul|dns:wild-(middle|doublestar)|dns:ipv6-as-dns|ip:.*/both)@leaf$"], PYCA,
                profiles={"apple"}, cause={"pyca": r"(?i)name constraint|DNS name|invalid|SAN"}),
    # directoryName constraints: certkit implements them (RFC 5280 section 4.2.1.10); pyca refuses the extension
    # and GnuTLS refuses every certificate below an excluded directoryName.
    Rule("directoryname-constraints", r"^nc\.(exclude|permit)-dirname-", ("gnutls",) + PYCA,
         cause={"gnutls": gnu(G_CONSTRAINTS, G_ISSUER), "pyca": r"(?i)name constraint|unsupported|DirectoryName"}),
    # Apple's serverAuth requirement covers leaves issued from 2019-07-01 on; before that, anyExtendedKeyUsage
    # allows TLS (certkit.eku-purpose), as trustd accepts it. OpenSSL's sslserver purpose and pyca want serverAuth.
    AllTagsRule("apple-pre-2019-any-eku", [r"^validity\.notbefore-2019-06-30", r"^eku\.leaf-any-only@leaf$"],
                OPENSSL_ALL + PYCA, profiles={"apple"},
                cause={"openssl": ossl(26), "pyca": r"(?i)extended ?key ?usage|EKU|2\.5\.29\.37"}),
    # A leaf that is itself the anchor is not held to the leaf rules of the SSL profiles (apple.server-eku): with
    # anyExtendedKeyUsage alone it is trusted; OpenSSL's sslserver purpose and pyca want serverAuth.
    AllTagsRule("anchor-leaf-any-eku", [r"^chain\.anchor-is-leaf$", r"^eku\.leaf-any-only@leaf$"], OPENSSL_ALL + PYCA,
                profiles={"apple"}, cause={"openssl": ossl(26), "pyca": py("required EKU not found")}),
    # A leaf that is itself the anchor is the whole path's trust anchor: it is not checked against CRLs (RFC 5280
    # section 6.1: the anchor is not part of the path validated); OpenSSL -crl_check_all still looks for its CRL.
    AllTagsRule("anchor-not-revocation-checked", [r"^chain\.anchor-is-leaf$", r"^crl\."], OPENSSL_ALL,
                cause={"openssl": r"^error \d+ at \d+ depth lookup: .*(CRL|revoked)"}),
    # The same for an intermediate made an anchor and revoked by its issuer's CRL: the path ends at the anchor, which
    # is trusted as given; GnuTLS and OpenSSL walk on to the root and apply the root's CRL to it.
    AllTagsRule("anchor-int-not-revocation-checked", [r"^anchor@int$", r"^crl\.revoke-int"], OPENSSL_ALL + ("gnutls",),
                cause={"openssl": r"^error \d+ at \d+ depth lookup: .*(CRL|revoked)",
                       "gnutls": gnu("The certificate chain is revoked")}),
    # A name that is not valid UTF-8 in a UTF8String: OpenSSL's decoder refuses the whole certificate; the core
    # (and pyca, and GnuTLS) keep the bytes, compare names as encoded and print them escaped.
    Rule("openssl-bad-utf8-load", r"^name\.subject-bad-utf8@", OPENSSL_ALL + PYCA,
         cause={"openssl": OSSL_LOAD, "pyca": r'kind: InvalidValue, location: \["subject"\]'}),
    # The same intermediate beside a distractor of its name in the untrusted file: OpenSSL loads the file without
    # the certificate it cannot decode and finds no issuer for the leaf (error 20).
    AllTagsRule("openssl-bad-utf8-distractor", [r"^name\.subject-bad-utf8@int\d?$", r"^chain\.distractor$"], OPENSSL_ALL,
                cause={"openssl": ossl(20)}),
    # A distractor with the issuer's name and another key is tried first by pyca; when the real path fails too
    # (for its own explained reason: the anchor's own signature algorithm), pyca reports only the last candidate.
    DistractorRule("pyca-distractor-last-error", r"^chain\.(cross-distractor-same-name|self-issued-int)$", PYCA,
                   cause={"pyca": py("signature does not match")}),
    # An intermediate anchor beside the root: certtool checks the anchor and what is above it up to the root, and
    # refuses without a reason a certificate whose signature algorithm, or whose issuer's keyUsage, it cannot read.
    GnuTLSBeyondAnchorRule("gnutls-unreadable-beyond-anchor", r".", ("gnutls",),
                           cause={"gnutls": r"^The certificate is NOT trusted\.$"}),
    # The path ends at the first anchor (SecTrust, RFC 5280 section 6.1.1 (d)): certificates above it are not read.
    # Only reasons about certificates above the leaf are explained (never a host name or a leaf error).
    AboveAnchorRule("above-the-anchor", r".", ALL,
                    cause={"openssl": ossl_above_leaf() + "|" + OSSL_LOAD,
                           "gnutls": gnu(G_ISSUER, G_NOT_CA, G_SIG, G_INSECURE, G_CRIT, G_PURPOSE, G_CONSTRAINTS,
                                         G_EXPIRED, G_NOT_YET_VALID, G_NO_ISSUER_DN, *G_LOAD),
                           "pyca": r"candidates exhausted|^ValueError: error parsing asn1 value|^InvalidVersion: "
                                   r"|must have a non-empty Issuer"}),
    # RFC 5280 section 4.1.2.5: the validity period runs from notBefore through notAfter, inclusive; OpenSSL
    # treats the notAfter second itself as expired.
    Rule("notafter-inclusive", r"^validity\.notafter-equals-at@", OPENSSL_ALL, cause={"openssl": ossl(10)}),
    # keyCertSign in a leaf that is not a CA: a duty of the issuing CA (RFC 5280 section 4.2.1.3) that trustd does
    # not check; the rfc5280 and webpki profiles enforce it (rfc5280.key-cert-sign-requires-ca).
    Rule("keycertsign-without-ca", r"^(ku\.leaf-all|bc\.leaf-ca-true[a-z0-9-]*)@leaf$", STRICT + PYCA, profiles={"apple"},
         cause={"openssl": ossl(82, 79), "pyca": py("EE keyUsage must not assert keyCertSign")}),
    # A leaf asserting cA (a CA certificate used as the end entity) without keyUsage, apple profile: keyUsage in a
    # CA certificate is a duty of the issuing CA (RFC 5280 section 4.2.1.3), and the leaf issues nothing in this
    # path; openssl -x509_strict wants it ("CA cert does not include key usage extension", and keyCertSign for the
    # pathLenConstraint).
    AllTagsRule("leaf-ca-without-key-usage", [r"^bc\.leaf-ca-true[a-z0-9-]*@leaf$", r"^(ku\.leaf-remove|ext\.remove:ku)@leaf$"],
                STRICT, profiles={"apple"}, cause={"openssl": ossl(81, 92)}),
    # The same leaf with an empty subject as well: openssl -x509_strict wants a subject in every certificate that
    # asserts keyCertSign (a CA duty, RFC 5280 section 4.1.2.6); the SAN (critical, as required) names the leaf.
    AllTagsRule("empty-subject-keycertsign", [r"^ku\.leaf-all@leaf$", r"^san\.empty-subject[a-z-]*@leaf$"], STRICT,
                profiles={"apple"}, cause={"openssl": ossl(84)}),
    # The Netscape certificate type extension (obsolete since 2000s) is not processed by certkit, trustd, GnuTLS
    # or pyca; OpenSSL's sslserver purpose still honours it.
    Rule("netscape-cert-type", r"^ext\.add:ns-cert-type-[a-z]+@", OPENSSL_ALL, cause={"openssl": ossl(26)}),
    # A malformed Netscape certificate type in a CA: certkit (and trustd, GnuTLS, pyca) do not process the obsolete
    # non-critical extension; OpenSSL fails to cache the CA's extensions, takes it for no certificate and finds no
    # issuer (error 20).
    Rule("openssl-malformed-netscape-cert-type", r"^ext\.malformed:ns-cert-type/[a-z-]+@(int\d?|root)$", OPENSSL_ALL,
         cause={"openssl": ossl(20)}),
    # An empty dNSName in the leaf's subjectAltName, the peer an IP address (apple profile, which reads names as
    # trustd does): certtool refuses to load the certificate.
    Rule("gnutls-empty-dnsname-load", r"^host\.dns:san-empty-dns@leaf$", ("gnutls",), profiles={"apple"},
         cause={"gnutls": gnu("error parsing CRTs: Unknown Subject Alternative name")}),
    # RFC 8410 EdDSA keys (and RFC 3279 DSA) under the rfc5280 profile; pyca's verifier is a Web PKI verifier.
    Rule("rfc5280-eddsa", r"^key\.type:(ed25519|ed448|dsa)@", PYCA, profiles={"rfc5280"},
         cause={"pyca": r"(?i)forbidden|unsupported|public key|algorithm"}),
    # anyExtendedKeyUsage alone in the leaf: RFC 5280 section 4.2.1.12 reads it as "no restriction"; OpenSSL's
    # sslserver purpose and pyca want serverAuth itself (as the apple and webpki profiles do).
    Rule("rfc5280-any-eku", r"^eku\.leaf-any-only@leaf$", OPENSSL_ALL + PYCA + ("gnutls",), profiles={"rfc5280"},
         cause={"openssl": ossl(26), "gnutls": gnu(G_PURPOSE), "pyca": r"(?i)extended ?key ?usage|EKU|2\.5\.29\.37"}),
    # trustd's SecDNSMatch ignores one trailing dot on the host (the absolute form of the same DNS name); the
    # rfc5280 and webpki profiles refuse such a host (rule certkit.host-trailing-dot), as every reference does.
    Rule("apple-host-trailing-dot", r"^host\.dns:host-trailing-dot@leaf$", ALL, profiles={"apple"},
         cause={"openssl": ossl(62), "gnutls": gnu(G_NAME), "pyca": r"^ValueError: invalid domain name"}),
    # RFC 5280 path validation does not read the leaf's keyUsage (certkit.tls-leaf-key-usage is apple and webpki);
    # OpenSSL's sslserver purpose, certtool's serverAuth purpose and pyca want a key the handshake can use.
    Rule("rfc5280-leaf-key-usage", r"^ku\.leaf-(decipher-only|dataencipherment|certsign-only)@leaf$",
         OPENSSL_ALL + PYCA + ("gnutls",), profiles={"rfc5280"},
         cause={"openssl": ossl(26), "gnutls": gnu(G_PURPOSE, "Key usage violation"),
                "pyca": r"(?i)key ?usage|2\.5\.29\.15"}),
    # The Web PKI verifiers take the anchor as given: under webpki the CA-profile rules (keyUsage present and
    # critical, subjectKeyIdentifier, basicConstraints critical) apply to intermediates only.
    Rule("webpki-anchor-as-given",
         r"^(ext\.remove:(ku|ski)|ext\.criticality:(ku|bc)/noncritical|ku\.root-(remove|noncritical)|bc\.root-noncritical)@root$",
         STRICT + PYCA, profiles={"webpki"},
         cause={"openssl": ossl(81, 86, 89, 92), "pyca": r"invalid extension: 2\.5\.29\.(14|15|19): "}),

    # Backend disagreements where one backend's library cannot read the input and that backend fails closed
    # (the other trusts, as the core does). kind="disagreement": the two certkit backends differ. The cause is
    # matched against the refusing backend's report ("certkit-backends": one reason per backend that does not
    # trust); when one backend trusts, every reference that rejects must also be explained by an accept row.
    # GnuTLS refuses to import an anchor whose inner/outer signature algorithms differ, whose signature value is
    # empty or has unused bits, or whose signature algorithm it does not know; certkit trusts an anchor as given.
    Rule("gnutls-unimportable-anchor",
         r"^(sigalg\.(mismatch|oid)|sig\.(empty|unused-bits|truncate))[^@]*@(?P<anchor>root|int\d?|leaf)$",
         ("certkit-backends",), kind="disagreement", cause={"certkit-backends": r"^gnutls="}),
    # GnuTLS matches issuer names byte for byte; the core (and OpenSSL, and trustd) compare normalised names.
    Rule("gnutls-name-bytes", r"^name\.issuer-(case|whitespace|string-type)@", ("certkit-backends",), kind="disagreement",
         cause={"certkit-backends": r"^gnutls="}),
    # OpenSSL cannot decode a certificate whose name holds an invalid UTF8String; the core displays it escaped.
    Rule("openssl-bad-utf8", r"^name\.subject-bad-utf8@", ("certkit-backends",), kind="disagreement",
         cause={"certkit-backends": r"^openssl=.*(utf8|d2i_X509|BackendError)"}),
    # GnuTLS applies DNS name constraints to the subject CN of a leaf without dNSName (see cn-not-constrained).
    AllTagsRule("gnutls-nc-on-cn", [r"^san\.no-dns-cn-host@leaf$", r"^nc\."], ("certkit-backends",), kind="disagreement",
                profiles={"apple", "rfc5280"}, cause={"certkit-backends": r"^gnutls=.*NameConstraints"}),
    # GnuTLS's path verifier cannot tell a self-issued intermediate from the same-named anchor above it once an
    # identifier is missing, and fails closed; the core links them by key.
    AllTagsRule("gnutls-nc-empty-dns-intersection-backend", [r"^nc\.permit-dns-empty@int", r"^nc\.permit-dns-ok@root$"],
                ("certkit-backends",), kind="disagreement", cause={"certkit-backends": r"^gnutls="}),
    Rule("gnutls-self-issued-same-name", r"^chain\.self-issued-int$", ("certkit-backends",), kind="disagreement",
         cause={"certkit-backends": r"^gnutls="}),
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


def backend_reasons(detail):
    """The refusing backends' parts of certkit's `--backend both` detail ("gnutls=...; openssl=..."): one reason per
    backend whose result is not a trusting one."""
    out = []
    for part in re.split(r"; (?=(?:openssl|gnutls)=)", detail or ""):
        name, _, result = part.partition("=")
        if result and not result.startswith(("unspecified", "proceed")):
            out.append(part)
    return out or [detail or ""]


def explain(tags, rejecting, profile, kind="accept", details=None):
    """The ids of the rules explaining every reason of every rejecting reference, or None."""
    used = []
    details = details or {}
    for r in rejecting:
        parts = backend_reasons(details.get(r)) if r == "certkit-backends" else reasons(r, details.get(r, ""))
        for reason in parts:
            hit = next((rule for rule in RULES if rule.kind == kind and r in rule.references
                        and rule.applies(tags, profile) and rule.explains(r, reason)), None)
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
    ref_details = {k: v["detail"] for k, v in ref.items()}
    if code == 3:
        used = explain(case.mutations, ["certkit-backends"], profile, kind="disagreement",
                       details={"certkit-backends": ck.get("detail", "")})
        if used and ck.get("trusting") and rejecting:
            # One backend trusts: that acceptance must hold against the references like any accept.
            also = explain(case.mutations, rejecting, profile, details=ref_details)
            used = used + [u for u in also if u not in used] if also is not None else None
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
    used = explain(case.mutations, rejecting, profile, details=ref_details)
    if used:
        return "explained-accept", ",".join(used)
    return "unexplained-accept", None
