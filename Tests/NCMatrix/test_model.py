"""The name-constraint matrix's rule model (Scripts/ncmatrix/model.py): one assertion per clause, with the example
Docs/Profiles.md or RFC 5280 gives, so a change to the model that breaks a clause fails here before it changes
thousands of expected answers. Run: python3 -m unittest discover -s Tests/NCMatrix"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Scripts", "ncmatrix"))
import model  # noqa: E402

D, I, E = (lambda v: ("dns", v)), (lambda v: ("ip", v)), (lambda v: ("email", v))


def ok(name, permitted=(), excluded=()):
    return model.allowed(name, list(permitted), list(excluded))


class PeerNameTests(unittest.TestCase):
    def test_dns_exact_case_and_host_trailing_dot(self):  # P1
        self.assertTrue(model.peer_matches(("host", "WWW.example.com."), [D("www.EXAMPLE.com")], []))
        self.assertFalse(model.peer_matches(("host", "www.example.com"), [D("www.example.com.")], []))

    def test_wildcard_one_whole_label(self):  # P2
        self.assertTrue(model.peer_matches(("host", "a.example.com"), [D("*.example.com")], []))
        self.assertFalse(model.peer_matches(("host", "a.b.example.com"), [D("*.example.com")], []))
        self.assertFalse(model.peer_matches(("host", "example.com"), [D("*.example.com")], []))
        self.assertFalse(model.peer_matches(("host", "example.com"), [D("*.com")], []))

    def test_ip_bytes_not_spellings(self):  # P3
        self.assertTrue(model.peer_matches(("ip", "2001:db8::1"), [I("2001:DB8:0::1")], []))
        self.assertFalse(model.peer_matches(("ip", "192.0.2.10"), [I("::ffff:192.0.2.10")], []))

    def test_email_san_or_attribute_case_insensitive(self):  # P4
        self.assertTrue(model.peer_matches(("email", "a@example.com"), [E("A@EXAMPLE.COM")], []))
        self.assertTrue(model.peer_matches(("email", "a@example.com"), None, ["a@example.com"]))
        self.assertFalse(model.peer_matches(("email", "a@example.com"), [D("example.com")], []))


class ConstraintTests(unittest.TestCase):
    def test_forms_are_independent(self):  # N1
        self.assertTrue(ok(E("a@other.org"), permitted=[D("example.com")]))
        self.assertFalse(ok(D("other.org"), permitted=[D("example.com")], excluded=[E("example.com")]))

    def test_dns_label_aligned_and_leading_period(self):  # N2
        self.assertTrue(ok(D("www.example.com"), permitted=[D("EXAMPLE.COM")]))
        self.assertTrue(ok(D("example.com"), permitted=[D("example.com")]))
        self.assertFalse(ok(D("badexample.com"), permitted=[D("example.com")]))
        self.assertFalse(ok(D("example.com"), permitted=[D(".example.com")]))
        self.assertTrue(ok(D("www.example.com."), permitted=[D("example.com")]))

    def test_wildcard_reaches_an_excluded_child(self):  # N3
        self.assertFalse(ok(D("*.example.com"), excluded=[D("www.example.com")]))
        self.assertTrue(ok(D("*.example.com"), excluded=[D("a.www.example.com")]))
        self.assertFalse(ok(D("*.example.com"), permitted=[D("www.example.com")]))

    def test_email_mailbox_host_domain(self):  # N4
        self.assertTrue(ok(E("a@example.com"), permitted=[E("example.com")]))
        self.assertFalse(ok(E("a@sub.example.com"), permitted=[E("example.com")]))
        self.assertTrue(ok(E("a@sub.example.com"), permitted=[E(".example.com")]))
        self.assertFalse(ok(E("a@example.com"), permitted=[E(".example.com")]))
        self.assertTrue(ok(E("admin@EXAMPLE.com"), permitted=[E("admin@example.com")]))
        self.assertFalse(ok(E("Admin@example.com"), permitted=[E("admin@example.com")]))  # RFC 5280 §7.5
        self.assertFalse(ok(E("Admin@example.com"), excluded=[E("admin@example.com")]))  # the safe side

    def test_ip_families(self):  # N5
        self.assertFalse(ok(I("192.0.2.10"), permitted=[I("::ffff:192.0.2.0/120")]))
        self.assertFalse(ok(I("::ffff:192.0.2.10"), permitted=[I("192.0.2.0/24")]))
        self.assertTrue(ok(I("::ffff:192.0.2.10"), permitted=[I("::ffff:192.0.2.0/120")]))
        self.assertFalse(ok(I("::ffff:192.0.2.10"), permitted=[I("::/0")]))
        self.assertFalse(ok(I("::ffff:192.0.2.10"), excluded=[I("192.0.2.0/24")]))
        self.assertFalse(ok(I("192.0.2.10"), excluded=[I("::/0")]))
        self.assertTrue(ok(I("2001:db8::1"), excluded=[I("0.0.0.0/0")]))

    def test_expected_names_and_cn(self):  # N6 and the peer name as a constrained name
        answer = model.expected([D("example.com")], [], [I("192.0.2.10")], [], ("ip", "192.0.2.10"))
        self.assertTrue(answer["trusted"])
        answer = model.expected([D("example.com")], [], [D("*.example.com")], [], ("host", "www.example.com"))
        self.assertTrue(answer["trusted"])
        answer = model.expected([], [D("www.example.com")], [D("*.example.com")], [], ("host", "a.example.com"))
        self.assertEqual(answer["checks"], ["NameConstraints"])
        answer = model.expected([E("example.com")], [], [D("www.example.com")], ["a@other.org"], ("host", "www.example.com"))
        self.assertEqual(answer["checks"], ["NameConstraints"])

    def test_basic_profile_rules(self):  # R1, R2
        self.assertEqual(model.expected([D(".example.com")], [], [I("192.0.2.1")], [], None)["checks"], ["NameConstraints"])
        self.assertEqual(model.expected([], [D("sub.example.com")], [D("www.example.com.")], [], None)["checks"],
                         ["NameConstraints"])
        self.assertTrue(model.expected([], [I("10.0.0.0/8")], [D("www.example.com.")], [], None)["trusted"])


if __name__ == "__main__":
    unittest.main()
