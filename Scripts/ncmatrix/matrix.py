"""The dimensions of the name-constraint matrix, BetterTLS style: what the intermediate constrains,
which names the leaf carries in its subjectAltName and its subject, and which peer name is checked.

A case is one (constraint set, SAN form, subject form, peer name). Every list here is fixed and ordered, so case
ids are stable: `<constraints>/<san>/<subject>/<peer>`.

Names used throughout: example.com is the constrained zone, sub.example.com a subtree of it, other.org and
example.net outside it; 192.0.2.0/24 (TEST-NET-1), 10.0.0.0/8 and 2001:db8::/32 are the address ranges.
"""

import ipaddress

# ------------------------------------------------------------------------------------------------ subtrees
# A subtree is (form, value): ("dns", text), ("email", text), ("ip", "network/prefix").


def D(text):
    return ("dns", text)


def E(text):
    return ("email", text)


def I(text):
    return ("ip", text)


# (id, category, permitted subtrees, excluded subtrees). Category names the row of the statistics.
def constraint_sets():
    sets = [("none", "control", [], [])]
    atoms = [
        ("dns-zone", "dns", D("example.com")),
        ("dns-leading-dot", "dns", D(".example.com")),
        ("dns-sub", "dns", D("sub.example.com")),
        ("dns-upper", "dns", D("EXAMPLE.COM")),
        ("dns-net", "dns", D("example.net")),
        ("ip4-24", "ip", I("192.0.2.0/24")),
        ("ip4-8", "ip", I("10.0.0.0/8")),
        ("ip4-25", "ip", I("192.0.2.128/25")),
        ("ip4-32", "ip", I("192.0.2.10/32")),
        ("ip4-0", "ip", I("0.0.0.0/0")),
        ("ip6-32", "ip", I("2001:db8::/32")),
        ("ip6-48", "ip", I("2001:db8:1::/48")),
        ("ip6-128", "ip", I("2001:db8::1/128")),
        ("ip6-0", "ip", I("::/0")),
        ("ip6-mapped-120", "ip", I("::ffff:192.0.2.0/120")),
        ("ip6-mapped-96", "ip", I("::ffff:0.0.0.0/96")),
        ("email-mailbox", "email", E("admin@example.com")),
        ("email-host", "email", E("example.com")),
        ("email-domain", "email", E(".example.com")),
        ("email-sub-host", "email", E("sub.example.com")),
    ]
    for name, form, subtree in atoms:
        sets.append((f"permit-{name}", f"{form} permitted", [subtree], []))
        sets.append((f"exclude-{name}", f"{form} excluded", [], [subtree]))
    both = [
        ("dns-zone-minus-sub", "dns", [D("example.com")], [D("sub.example.com")]),
        ("dns-dot-minus-sub", "dns", [D(".example.com")], [D("sub.example.com")]),
        ("dns-zone-minus-zone", "dns", [D("example.com")], [D("example.com")]),
        ("dns-zone-and-net", "dns", [D("example.com"), D("example.net")], []),
        ("dns-zone-minus-www", "dns", [D("example.com")], [D("www.example.com")]),
        ("ip4-24-minus-25", "ip", [I("192.0.2.0/24")], [I("192.0.2.128/25")]),
        ("ip4-all-minus-32", "ip", [I("0.0.0.0/0")], [I("192.0.2.10/32")]),
        ("ip6-32-minus-48", "ip", [I("2001:db8::/32")], [I("2001:db8:1::/48")]),
        ("ip4-and-ip6", "ip", [I("192.0.2.0/24"), I("2001:db8::/32")], []),
        ("ip4-24-minus-mapped", "ip", [I("192.0.2.0/24")], [I("::ffff:192.0.2.10/128")]),
        ("email-domain-minus-mailbox", "email", [E(".example.com")], [E("admin@sub.example.com")]),
        ("email-host-minus-mailbox", "email", [E("example.com")], [E("admin@example.com")]),
        ("email-host-and-domain", "email", [E("example.com"), E(".example.com")], []),
        ("dns-and-ip4", "mixed", [D("example.com"), I("192.0.2.0/24")], []),
        ("dns-no-ip", "mixed", [D("example.com")], [I("0.0.0.0/0"), I("::/0")]),
        ("dns-and-email", "mixed", [D("example.com"), E("example.com")], []),
        ("exclude-sub-and-ip", "mixed", [], [D("sub.example.com"), I("192.0.2.10/32")]),
        ("ip-only-exclude-dns", "mixed", [I("192.0.2.0/24")], [D("other.org")]),
        ("email-only-exclude-dns", "mixed", [E(".example.com")], [D("sub.example.com")]),
        ("all-three", "mixed", [D("example.com"), I("192.0.2.0/24"), I("2001:db8::/32"), E("example.com")],
         [D("sub.example.com"), I("192.0.2.128/25"), E("admin@example.com")]),
    ]
    for name, form, permitted, excluded in both:
        sets.append((f"both-{name}", f"{form} both", permitted, excluded))
    return sets


# ------------------------------------------------------------------------------------------------ leaf SANs
# A SAN entry is (form, value): ("dns", text), ("ip", address text), ("email", text).
# (id, category, entries, peer names). A peer name is ("host", text), ("ip", text) or ("email", text).
def san_forms():
    host, ipn, mail = (lambda t: ("host", t)), (lambda t: ("ip", t)), (lambda t: ("email", t))
    d, a, e = (lambda t: ("dns", t)), (lambda t: ("ip", t)), (lambda t: ("email", t))
    return [
        ("none", "none", None, [host("www.example.com"), ipn("192.0.2.10")]),
        ("dns-zone", "dns", [d("example.com")], [host("example.com")]),
        ("dns-www", "dns", [d("www.example.com")], [host("www.example.com"), host("www.example.com.")]),
        ("dns-sub", "dns", [d("sub.example.com")], [host("sub.example.com")]),
        ("dns-in-sub", "dns", [d("x.sub.example.com")], [host("x.sub.example.com")]),
        ("dns-deep", "dns", [d("a.b.example.com")], [host("a.b.example.com")]),
        ("dns-sibling", "dns", [d("badexample.com")], [host("badexample.com")]),
        ("dns-suffix-trick", "dns", [d("example.com.other.org")], [host("example.com.other.org")]),
        ("dns-other", "dns", [d("www.other.org")], [host("www.other.org")]),
        ("dns-net", "dns", [d("www.example.net")], [host("www.example.net")]),
        ("dns-upper", "dns", [d("WWW.EXAMPLE.COM")], [host("www.example.com")]),
        ("dns-mixed-case-host", "dns", [d("www.example.com")], [host("WwW.ExAmPlE.CoM")]),
        ("dns-trailing-dot", "dns", [d("www.example.com.")], [host("www.example.com")]),
        ("wildcard-zone", "dns wildcard", [d("*.example.com")], [host("www.example.com"), host("sub.example.com")]),
        ("wildcard-sub", "dns wildcard", [d("*.sub.example.com")], [host("x.sub.example.com")]),
        ("wildcard-other", "dns wildcard", [d("*.other.org")], [host("www.other.org")]),
        ("wildcard-upper", "dns wildcard", [d("*.EXAMPLE.COM")], [host("www.example.com")]),
        ("dns-host-mismatch", "dns", [d("www.example.com")], [host("mail.example.com")]),
        ("ip4-in", "ip", [a("192.0.2.10")], [ipn("192.0.2.10")]),
        ("ip4-in-high", "ip", [a("192.0.2.200")], [ipn("192.0.2.200")]),
        ("ip4-ten", "ip", [a("10.1.2.3")], [ipn("10.1.2.3")]),
        ("ip4-out", "ip", [a("198.51.100.1")], [ipn("198.51.100.1")]),
        ("ip6-in", "ip", [a("2001:db8::1")], [ipn("2001:db8::1")]),
        ("ip6-in-48", "ip", [a("2001:db8:1::5")], [ipn("2001:db8:1::5")]),
        ("ip6-out", "ip", [a("2001:db9::1")], [ipn("2001:db9::1")]),
        ("ip6-mapped-in", "ip", [a("::ffff:192.0.2.10")], [ipn("::ffff:192.0.2.10"), ipn("192.0.2.10")]),
        ("ip6-mapped-out", "ip", [a("::ffff:198.51.100.1")], [ipn("::ffff:198.51.100.1")]),
        ("ip-host-mismatch", "ip", [a("192.0.2.10")], [ipn("192.0.2.11")]),
        ("email-admin", "email", [e("admin@example.com")], [mail("admin@example.com")]),
        ("email-user", "email", [e("user@example.com")], [mail("user@example.com")]),
        ("email-sub", "email", [e("admin@sub.example.com")], [mail("admin@sub.example.com")]),
        ("email-other", "email", [e("user@other.org")], [mail("user@other.org")]),
        ("email-upper", "email", [e("ADMIN@EXAMPLE.COM")], [mail("admin@example.com")]),
        ("email-local-upper", "email", [e("Admin@example.com")], [mail("Admin@example.com")]),
        ("email-host-upper", "email", [e("admin@EXAMPLE.COM")], [mail("admin@example.com")]),
        ("email-with-host", "email", [e("admin@example.com")], [host("www.example.com")]),
        ("mixed-dns-ip-in", "mixed", [d("www.example.com"), a("192.0.2.10")],
         [host("www.example.com"), ipn("192.0.2.10")]),
        ("mixed-dns-in-ip-out", "mixed", [d("www.example.com"), a("198.51.100.1")],
         [host("www.example.com"), ipn("198.51.100.1")]),
        ("mixed-dns-out-ip-in", "mixed", [d("www.other.org"), a("192.0.2.10")],
         [host("www.other.org"), ipn("192.0.2.10")]),
        ("mixed-dns-in-dns-out", "mixed", [d("www.example.com"), d("www.other.org")], [host("www.example.com")]),
        ("mixed-dns-in-sub", "mixed", [d("www.example.com"), d("sub.example.com")], [host("www.example.com")]),
        ("mixed-dns-trailing-dot-twin", "mixed", [d("www.example.com"), d("www.example.com.")], [host("www.example.com")]),
        ("mixed-dns-email-out", "mixed", [d("www.example.com"), e("user@other.org")], [host("www.example.com")]),
        ("mixed-all-in", "mixed", [d("www.example.com"), a("192.0.2.10"), a("2001:db8::1"), e("user@example.com")],
         [host("www.example.com"), ipn("2001:db8::1"), mail("user@example.com")]),
        ("mixed-ip4-ip6", "mixed", [a("192.0.2.10"), a("2001:db9::1")], [ipn("192.0.2.10")]),
        ("mixed-ip-only-cn-host", "mixed", [a("192.0.2.10")], [host("www.example.com")]),
    ]


# ------------------------------------------------------------------------------------------------ leaf subject
# (id, category, commonName or None, emailAddress attribute or None). The subject always carries
# O=certkit ncmatrix, so it is never empty.
def subject_forms():
    return [
        ("no-cn", "none", None, None),
        ("cn-dns-in", "dns-like in", "www.example.com", None),
        ("cn-dns-sub", "dns-like in excluded sub", "x.sub.example.com", None),
        ("cn-dns-out", "dns-like out", "www.other.org", None),
        ("cn-ip", "ip-like", "192.0.2.10", None),
        ("cn-email", "email-like", "admin@example.com", None),
        ("cn-dns-out-email-attr", "emailAddress attribute", "www.other.org", "user@other.org"),
    ]


def ip_bytes(text):
    return ipaddress.ip_address(text).packed


def ip_range_bytes(text):
    net = ipaddress.ip_network(text, strict=False)
    return net.network_address.packed + net.netmask.packed
