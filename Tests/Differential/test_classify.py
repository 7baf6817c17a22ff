"""Unit tests of the differential classifier (Scripts/differential/classify.py): an explanation covers a reference's
reason, not a tag that happens to be present. Run: python3 -m unittest discover -s Tests/Differential -p 'test_*.py'"""

import os
import re
import sys
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts", "differential"))
import classify  # noqa: E402

SUMMARY = "error /dev/shm/x/leaf.pem: verification failed"


def ossl(*lines):
    return " | ".join(list(lines) + [SUMMARY])


def gnutls(*sentences):
    return "Chain verification output: Not verified. The certificate is NOT trusted. " + " ".join(sentences)


def run(tags, refs, exit_code=0, trusting=(), certkit="", profile=None):
    case = types.SimpleNamespace(mutations=list(tags))
    ref = {r: {"ok": False, "detail": d} for r, d in refs.items()}
    ck = {"exit": exit_code, "trusting": list(trusting), "detail": certkit}
    return classify.categorise(case, ck, ref, sorted(refs), profile)


class ReasonsTests(unittest.TestCase):
    def test_openssl_lines_without_the_summary(self):
        self.assertEqual(classify.reasons("openssl", ossl("error 79 at 1 depth lookup: invalid CA certificate",
                                                          "error 3 at 0 depth lookup: unable to get certificate CRL")),
                         ["error 79 at 1 depth lookup: invalid CA certificate",
                          "error 3 at 0 depth lookup: unable to get certificate CRL"])

    def test_gnutls_sentences_without_the_verdict(self):
        self.assertEqual(classify.reasons("gnutls", gnutls("The certificate issuer is unknown. The name in the "
                                                           "certificate does not match the expected.")),
                         ["The certificate issuer is unknown.", "The name in the certificate does not match the expected."])


class ExplanationTests(unittest.TestCase):
    def test_crl_coverage_explains_only_the_missing_crl(self):
        only = {"openssl": ossl("error 3 at 0 depth lookup: unable to get certificate CRL")}
        self.assertEqual(run(["crl.issuer-mismatch"], only)[0], "explained-accept")
        beside = {"openssl": ossl("error 79 at 1 depth lookup: invalid CA certificate",
                                  "error 3 at 0 depth lookup: unable to get certificate CRL")}
        self.assertEqual(run(["crl.issuer-mismatch"], beside)[0], "unexplained-accept")

    def test_anchor_signature_does_not_cover_an_expired_leaf(self):
        tags = ["sig.garbage@root", "validity.leaf-expired@leaf"]
        self.assertEqual(run(tags, {"openssl": ossl("error 2 at 2 depth lookup: unable to get issuer certificate")})[0],
                         "explained-accept")
        self.assertEqual(run(tags, {"openssl": ossl("error 10 at 0 depth lookup: certificate has expired")})[0],
                         "unexplained-accept")

    def test_policy_row_explains_only_unknown_critical_extensions(self):
        tags = ["policy.require-explicit-ok@int"]
        self.assertEqual(run(tags, {"gnutls": gnutls("The certificate contains an unknown critical extension.")})[0],
                         "explained-accept")
        self.assertEqual(run(tags, {"gnutls": gnutls("The certificate issuer is unknown.")})[0], "unexplained-accept")

    def test_explicit_default_false_is_the_encoding_not_the_criticality(self):
        tags = ["ext.criticality:nc/explicit-false@int"]
        parse = 'ValueError: error parsing asn1 value: ParseError { kind: EncodedDefault, location: ["Certificate::tbs_cert", "TbsCertificate::raw_extensions", 4, "Extension::critical"] }'
        self.assertEqual(run(tags, {"pyca": parse})[0], "explained-accept")
        self.assertEqual(run(tags, {"pyca": "VerificationError: validation failed: candidates exhausted: invalid "
                                            "extension: 2.5.29.30: Certificate extension has incorrect criticality"})[0],
                         "unexplained-accept")

    def test_missing_not_malformed_key_identifier(self):
        reason = {"openssl-strict": ossl("error 85 at 0 depth lookup: Missing Authority Key Identifier")}
        self.assertEqual(run(["ext.remove:aki@leaf"], reason)[0], "explained-accept")
        self.assertEqual(run(["ext.malformed:aki/wrong-tag@leaf"], reason)[0], "unexplained-accept")

    def test_pathlen_row_has_a_terminator(self):
        reason = {"openssl-strict": ossl("error 80 at 0 depth lookup: Path length invalid for non-CA cert")}
        self.assertEqual(run(["bc.leaf-pathlen@leaf"], reason)[0], "explained-accept")
        self.assertEqual(run(["bc.leaf-ca-true-pathlen0@leaf"], reason)[0], "unexplained-accept")

    def test_a_trusting_backend_in_a_disagreement_answers_to_the_references(self):
        tags = ["name.subject-bad-utf8@leaf"]
        certkit = "gnutls=unspecified; openssl=otherError BackendError@0: openssl: d2i_X509 failed: invalid utf8string"
        load = "4047D9FCFA7F0000:error:1608010C:STORE routines:ossl_store_handle_load_result:unsupported"
        self.assertEqual(run(tags, {"openssl": load}, exit_code=3, trusting=["gnutls"], certkit=certkit)[0],
                         "explained-disagreement")
        self.assertEqual(run(tags, {"pyca": "VerificationError: validation failed: no permitted name constraints "
                                            "matched SAN"}, exit_code=3, trusting=["gnutls"], certkit=certkit)[0],
                         "backend-disagreement")

    def test_a_disagreement_row_needs_the_refusing_backend_it_names(self):
        tags = ["sig.empty@root"]
        gnutls_refuses = "gnutls=recoverableTrustFailure MissingIntermediate@1: no issuer; openssl=unspecified"
        openssl_refuses = "gnutls=unspecified; openssl=recoverableTrustFailure BasicConstraints@2: x"
        self.assertEqual(run(tags, {}, exit_code=3, trusting=["openssl"], certkit=gnutls_refuses)[0],
                         "explained-disagreement")
        self.assertEqual(run(tags, {}, exit_code=3, trusting=["gnutls"], certkit=openssl_refuses)[0],
                         "backend-disagreement")

    def test_a_loader_refusal_above_the_anchor_is_the_anchor_rows(self):
        # pyca and certtool refuse to load an anchors file whose root is a v2 certificate with extensions; the path
        # ends at the intermediate anchor, so the root is never read. The same refusal about the leaf is a finding.
        refs = {"pyca": "InvalidVersion: 1 is not a valid X509 version",
                "gnutls": "gnutls_x509_trust_add_trust_file: Error in the certificate."}
        self.assertEqual(run(["ext.field:v2-with-exts@root", "anchor@int", "chain.anchor-root-and-int"], refs)[0],
                         "explained-accept")
        self.assertEqual(run(["ext.field:v2-with-exts@leaf", "anchor@int", "chain.anchor-root-and-int"], refs)[0],
                         "unexplained-accept")

    def test_a_mutation_variant_aimed_at_the_ip_san_keeps_its_row(self):
        # "+ip-host" aims the host at the leaf's IP SAN; the constraint (and pyca's refusal of it) is the same.
        refs = {"pyca": "VerificationError: validation failed: candidates exhausted: malformed DNS name constraint: .example.com"}
        self.assertEqual(run(["nc.permit-dns-leading-dot+ip-host@root"], refs)[0], "explained-accept")
        self.assertEqual(run(["nc.permit-dns-leading-dot+ip-host@root"], refs, profile="webpki")[0], "unexplained-accept")

    def test_a_leaf_anchor_naming_itself_as_issuer_is_openssls_self_issued_root(self):
        # A leaf that is itself the anchor with issuer == subject (not self-signed): certkit trusts the anchor as
        # given; OpenSSL takes it for a self-issued root and looks for its signer (seed 20261205 case 173). The same
        # refusal when the leaf is not the anchor is a finding.
        refs = {"openssl": "error 20 at 0 depth lookup: unable to get local issuer certificate",
                "gnutls": "Chain verification output: Not verified. The certificate is NOT trusted. The certificate issuer is unknown."}
        tags = ["chain.anchor-is-leaf", "name.issuer-same-as-subject@leaf"]
        self.assertEqual(run(tags, refs)[0], "explained-accept")
        self.assertEqual(run(["name.issuer-same-as-subject@leaf"], refs)[0], "unexplained-accept")

    def test_an_empty_issuer_name_of_a_leaf_anchor_is_above_the_anchor(self):
        # The intermediate's subject emptied: the leaf (the anchor) then names an empty issuer, which pyca and
        # certtool refuse to read (seed 20261205 case 1012); certkit takes the anchor as given.
        refs = {"pyca": "VerificationError: validation failed: certificate must have a non-empty Issuer (encountered processing <Certificate(subject=<Name(CN=www.example.com)>, ...)>)",
                "gnutls": "|<1>| There was a non-CA certificate in the trusted list: CN=www.example.com.\nLoaded CAs (1 available)\ngnutls_x509_crt_get_issuer_dn: The requested data were not available.\n"}
        self.assertEqual(run(["chain.anchor-is-leaf", "name.subject-empty-ca@int"], refs)[0], "explained-accept")
        self.assertEqual(run(["name.subject-empty-ca@int"], refs)[0], "unexplained-accept")

    def test_a_critical_bc_after_an_unhandled_critical_extension(self):
        # seed 20261205 case 7894: OpenSSL reads the leaf's critical basicConstraints as non-critical after a critical
        # AKI; without the critical AKI the same error 89 is a finding.
        refs = {"openssl-strict": "error 34 at 0 depth lookup: unhandled critical extension | error 89 at 0 depth lookup: Basic Constraints of CA cert not marked critical"}
        self.assertEqual(run(["bc.leaf-ca-true@leaf", "ext.criticality:aki/critical@leaf"], refs)[0], "explained-accept")
        self.assertEqual(run(["bc.leaf-ca-true@leaf"], {"openssl-strict": "error 89 at 0 depth lookup: Basic Constraints of CA cert not marked critical"})[0],
                         "unexplained-accept")

    def test_gnutls_applying_an_unverified_crl_of_another_key(self):
        # seed 20261205 case 8736: the CRL's AKI names another key and the signature is another key's; certtool
        # still applies it. A CRL with only a bad signature is certkit's failure, so GnuTLS's "revoked" there (with
        # certkit accepting) stays a finding.
        refs = {"gnutls": "Chain verification output: Not verified. The certificate is NOT trusted. The certificate chain is revoked."}
        self.assertEqual(run(["crl.aki-mismatch", "crl.wrong-key"], refs)[0], "explained-accept")
        self.assertEqual(run(["crl.wrong-key"], refs)[0], "unexplained-accept")

    def test_a_leaf_anchor_with_any_eku_alone(self):
        # seed 20261205 case 23430: the leaf is the anchor, its EKU anyExtendedKeyUsage alone; OpenSSL and pyca want
        # serverAuth. The same leaf under an issuer is a finding for pyca.
        refs = {"openssl": "error 26 at 0 depth lookup: unsuitable certificate purpose",
                "pyca": "VerificationError: validation failed: required EKU not found (encountered processing <Certificate(subject=<Name(CN=www.example.com)>, ...)>)"}
        self.assertEqual(run(["chain.anchor-is-leaf", "eku.leaf-any-only@leaf"], refs)[0], "explained-accept")
        self.assertEqual(run(["eku.leaf-any-only@leaf"], {"pyca": refs["pyca"]})[0], "unexplained-accept")

    def test_rows_of_seed_20261205(self):
        # case 30976: an empty permitted dNSName in the root, an upper-case one in the intermediate.
        g_nc = "Chain verification output: Not verified. The certificate is NOT trusted. The certificate chain violates the signer's constraints."
        refs = {"gnutls": g_nc, "pyca": "VerificationError: validation failed: candidates exhausted: malformed DNS name constraint: "}
        self.assertEqual(run(["nc.permit-dns-empty@root", "nc.permit-dns-upper@int"], refs)[0], "explained-accept")
        self.assertEqual(run(["nc.permit-dns-upper@int"], {"gnutls": g_nc})[0], "unexplained-accept")
        # case 33741: the root's CRL lists the leaf; the intermediate is self-issued.
        revoked = {"gnutls": "Chain verification output: Not verified. The certificate is NOT trusted. The certificate chain is revoked."}
        self.assertEqual(run(["crl.root-crl-lists-leaf/not-revoking", "chain.self-issued-int"], revoked)[0], "explained-accept")
        self.assertEqual(run(["crl.root-crl-lists-leaf/not-revoking"], revoked)[0], "unexplained-accept")
        # case 39918: an IPv6 literal as dNSName beside an excluded subtree (apple profile only).
        malformed = {"pyca": "VerificationError: validation failed: candidates exhausted: unsatisfiable DNS name constraint: malformed SAN 2001:db8::10"}
        self.assertEqual(run(["nc.exclude-dns-www@root", "host.dns:ipv6-as-dns@leaf"], malformed)[0], "explained-accept")
        self.assertEqual(run(["nc.exclude-dns-www@root", "host.dns:ipv6-as-dns@leaf"], malformed, profile="rfc5280")[0],
                         "unexplained-accept")

    def test_more_rows_of_seed_20261205(self):
        # case 44954: the root above an intermediate anchor is not yet valid (inverted validity).
        refs = {"gnutls": "Chain verification output: Not verified. The certificate is NOT trusted. The certificate chain uses not yet valid certificate."}
        self.assertEqual(run(["validity.inverted@root", "anchor@int", "chain.anchor-root-and-int"], refs)[0], "explained-accept")
        self.assertEqual(run(["validity.inverted@leaf"], refs)[0], "unexplained-accept")
        # case 59581: an undecodable intermediate beside a distractor of its name.
        e20 = {"openssl": "error 20 at 0 depth lookup: unable to get local issuer certificate"}
        self.assertEqual(run(["name.subject-bad-utf8@int", "chain.distractor"], e20)[0], "explained-accept")
        self.assertEqual(run(["chain.distractor"], e20)[0], "unexplained-accept")

    def test_rows_of_the_final_rerun(self):
        # OpenSSL's error-queue lines are details of the verify errors beside them (case 91587).
        self.assertEqual(classify.reasons("openssl", "error 8 at 0 depth lookup: CRL signature failure | error x/leaf.pem: verification failed | 40B7308E947F0000:error:0200008A:rsa routines:RSA_padding_check_PKCS1_type_1:invalid padding:x.c:75:"),
                         ["error 8 at 0 depth lookup: CRL signature failure"])
        # A load failure keeps them (they are the reasons).
        self.assertEqual(len(classify.reasons("openssl", "Error loading file a.pem | 40E7:error:05880009:x509 certificate routines:X509_load_cert_crl_file_ex:PEM lib:x.c:235:")), 2)
        # case 95390: a malformed Netscape certificate type in the intermediate.
        e20 = {"openssl": "error 20 at 0 depth lookup: unable to get local issuer certificate"}
        self.assertEqual(run(["ext.malformed:ns-cert-type/garbage@int"], e20)[0], "explained-accept")
        self.assertEqual(run(["ext.malformed:ns-cert-type/garbage@leaf"], e20)[0], "unexplained-accept")
        # case 97173: an empty dNSName SAN, IP peer, apple profile.
        g = {"gnutls": "error parsing CRTs: Unknown Subject Alternative name in X.509 certificate."}
        self.assertEqual(run(["host.dns:san-empty-dns@leaf"], g)[0], "explained-accept")
        self.assertEqual(run(["host.dns:san-empty-dns@leaf"], g, profile="rfc5280")[0], "unexplained-accept")
        # case 94106: the empty permitted dNSName in an intermediate, another in the one below it.
        gnc = {"gnutls": "Chain verification output: Not verified. The certificate is NOT trusted. The certificate chain violates the signer's constraints."}
        self.assertEqual(run(["nc.permit-dns-empty+ip-host@int", "nc.permit-dns-upper@int2"], gnc)[0], "explained-accept")
        self.assertEqual(run(["nc.permit-dns-empty@int"], gnc)[0], "unexplained-accept")

    def test_gnutls_refusing_without_reason_beyond_an_intermediate_anchor(self):
        # Seed 20261205 cases 23311 and 80967: an intermediate anchor beside the root, the presented chain carrying
        # it. certtool checks the anchor and everything above it against its issuer up to the root and says only
        # "NOT trusted" when it cannot read a certificate's signature algorithm or its issuer's keyUsage.
        reasonless = {"gnutls": "Chain verification output: Not verified. The certificate is NOT trusted."}
        full = ["sigalg.oid:sm2-sm3/sha256@int", "ext.malformed:ku/wrap-seq@root", "anchor@int", "chain.anchor-root-and-int"]
        for tags in (full, [t for t in full if not t.startswith("sigalg.")], [t for t in full if not t.startswith("ext.")],
                     ["anchor@int2", "chain.anchor-root-and-int", "ext.malformed:ku/wrong-tag@int"],
                     ["anchor@int2", "chain.anchor-root-and-int", "sigalg.pss:absent@int"]):
            self.assertEqual(run(tags, reasonless), ("explained-accept", "gnutls-unreadable-beyond-anchor"), tags)
        must_not = [
            # the anchor alone in the trust list, or not presented: certtool does not go above it (it verifies these)
            ["anchor@int", "chain.anchor-is-int", "ext.malformed:ku/wrap-seq@root"],
            ["anchor@int", "chain.leaf-only-anchor-is-int", "sigalg.oid:sm2-sm3/sha256@int"],
            ["anchor@int", "chain.anchor-root-and-int", "chain.no-int", "ext.malformed:ku/wrap-seq@root"],
            # a keyUsage certtool reads (BER length), or one in the anchor itself (not above it)
            ["anchor@int", "chain.anchor-root-and-int", "ext.malformed:ku/nonminimal-length@root"],
            ["anchor@int2", "chain.anchor-root-and-int", "ext.malformed:ku/wrong-tag@int2"],
            # the root's own signature algorithm: the root is the trust list's, never checked
            ["anchor@int", "chain.anchor-root-and-int", "sigalg.oid:sm2-sm3/sha256@root"],
            ["sig.garbage@root"],
            # a signature algorithm certtool reads gives its own reason (insecure, invalid signature), not none
            ["anchor@int", "chain.anchor-root-and-int", "sigalg.oid:sha256WithRSA/sha1@int"],
            # below the anchor: on certkit's path too
            ["anchor@int", "chain.anchor-root-and-int", "sigalg.oid:unknown/sha256@leaf"],
        ]
        for tags in must_not:
            self.assertEqual(run(tags, reasonless)[0], "unexplained-accept", tags)
        # The row explains only the refusal without a reason: a reason of its own is another row's or a finding.
        self.assertEqual(run(full[1:], {"gnutls": gnutls("The name in the certificate does not match the expected.")})[0],
                         "unexplained-accept")

    def test_every_row_has_a_cause_for_every_reference_it_names(self):
        for rule in classify.RULES:
            for r in rule.references:
                self.assertIsNotNone(rule.cause_for(r), rule.id)

    def test_the_table_and_the_rules_name_the_same_rows(self):
        # known-differences.md is the documentation of RULES: a row without a rule explains nothing, a rule
        # without a row is undocumented.
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "known-differences.md")
        with open(path, encoding="utf-8") as table:
            documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", table.read(), re.M))
        self.assertEqual(documented, {rule.id for rule in classify.RULES})


if __name__ == "__main__":
    unittest.main()
