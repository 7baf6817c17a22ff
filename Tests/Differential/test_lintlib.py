"""Unit tests of the --lint-libraries explanations (Scripts/differential/lintlib.py): each reason covers only its
own shape, so a column that differs from its reference for any other reason stays a difference. Run: python3 -m
unittest discover -s Tests/Differential -p 'test_*.py'"""

import os
import sys
import types
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Scripts", "differential"))
import lintlib  # noqa: E402

LEAF, ROOT = b"leaf-der", b"root-der"


def case(leaf_is_anchor=False):
    return types.SimpleNamespace(
        presented_ders=lambda: [LEAF], anchor_ders=lambda: [LEAF] if leaf_is_anchor else [ROOT])


def column(ok, detail="trusted"):
    return {"ok": ok, "detail": detail}


class ExplanationTests(unittest.TestCase):
    def test_not_shown_only_when_the_column_says_so(self):
        reason = lintlib.explanation(column(False, "library.notShown the EC point is compressed"), column(True), "openssl", case())
        self.assertTrue(reason.startswith("not-shown"))
        self.assertIsNone(lintlib.explanation(column(False, "library.expired"), column(True), "openssl", case()))

    def test_no_core_path_needs_the_reference_to_accept(self):
        self.assertTrue(lintlib.explanation(
            column(False, "library.noIssuer unable to get local issuer certificate"), column(True), "openssl",
            case()).startswith("no-core-path"))
        self.assertIsNone(lintlib.explanation(
            column(True), column(False, "error 20 at 1 depth lookup"), "gnutls", case()))

    def test_path_given_is_openssl_error_20_against_an_accepting_column(self):
        self.assertTrue(lintlib.explanation(
            column(True), column(False, "error 20 at 0 depth lookup: unable to get local issuer certificate"), "openssl",
            case()).startswith("path-given"))
        self.assertIsNone(lintlib.explanation(
            column(True), column(False, "error 10 at 0 depth lookup: certificate has expired"), "openssl", case()))

    def test_unknown_critical_and_anchor_is_leaf_are_gnutls_only(self):
        refused = column(False, "The certificate contains an unknown critical extension.")
        self.assertTrue(lintlib.explanation(column(True), refused, "gnutls", case()).startswith("unknown-critical"))
        self.assertIsNone(lintlib.explanation(column(True), refused, "openssl", case()))
        self.assertTrue(lintlib.explanation(
            column(True), column(False, "issuer unknown"), "gnutls", case(leaf_is_anchor=True)).startswith("anchor-is-leaf"))
        self.assertIsNone(lintlib.explanation(column(True), column(False, "issuer unknown"), "gnutls", case()))

    def test_cn_not_constrained_needs_a_leaf_without_a_dns_name(self):
        refused = column(False, "error 49 at 0 depth lookup: name constraints minimum and maximum not supported")
        # A leaf that cannot be read is taken to have names: no explanation.
        self.assertIsNone(lintlib.explanation(column(True), refused, "openssl", case()))


if __name__ == "__main__":
    unittest.main()
