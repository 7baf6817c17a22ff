"""The expected answer of one matrix case: a small, explicit model of RFC 5280 §4.2.1.10 name constraints and of
TLS/email peer-name matching, as certkit's default profile (`apple`, the default of `--host`, `--ip` and `--email`)
documents them in Docs/Profiles.md (rules `rfc5280.name-constraints` and `apple.*`/`certkit.*` peer-name rules).

The model (every clause is a rule certkit documents; where RFC 5280 leaves room, the documented default wins):

Peer name (`SSLHostname` for --host/--ip, `Email` for --email):
  P1  a DNS host matches a subjectAltName dNSName only (no CN fallback), compared case-insensitively after
      dropping one trailing dot from the host (apple: trustd's SecDNSMatch ignores it); a dNSName that ends in a
      dot matches nothing.
  P2  a wildcard is the whole left-most label of a dNSName with at least two labels after it, and stands for
      exactly one label.
  P3  an IP address matches an iPAddress SAN of the same bytes (an IPv4 address never matches an IPv4-mapped
      IPv6 SAN, nor the reverse).
  P4  an email address matches an rfc822Name SAN or a subject emailAddress attribute, case-insensitively.

Name constraints (`NameConstraints`), applied to every subjectAltName of the leaf, every subject emailAddress
attribute (as an rfc822Name) and the checked peer name (as a dNSName, iPAddress or rfc822Name):
  N1  for each form (dNSName, iPAddress, rfc822Name): when the CA permits a subtree of that form, the name must
      lie in one of them; it must lie in no excluded subtree of that form. Other forms do not constrain it.
  N2  dNSName: the base "" holds every name; a base with a leading period (".example.com", accepted by the
      default profile) holds its proper subdomains only; any other base holds itself and its subdomains, label-
      aligned (badexample.com is not under example.com). Case-insensitive, one trailing dot ignored on both.
  N3  a wildcard dNSName (*.D) lies under a base when the text does (by N2), and is excluded also when an
      excluded base is one label under D (it stands for every name it can match).
  N4  rfc822Name: a base with an '@' is one mailbox; a base starting with '.' holds every host below it; any
      other base holds that host only (not its subdomains). Hosts compare case-insensitively (RFC 5280 §7.2). A
      mailbox compares its local part exactly in a permitted subtree, as RFC 5280 §7.5 says (Admin@example.com is
      not within a permitted admin@example.com; OpenSSL and GnuTLS agree), and case-insensitively in an excluded
      one — the safe side, as certkit's excluded iPAddress subtrees cover both spellings (Docs/Profiles.md, "IP
      address families"); RFC 5280 would let Admin@example.com through an excluded admin@example.com.
  N5  iPAddress: a permitted subtree holds only addresses of its own family — IPv4 (8-octet subtree), IPv4-mapped
      IPv6 (32-octet subtree inside ::ffff:0:0/96), other IPv6; an excluded subtree covers an address in either
      spelling (an IPv4 address also as ::ffff:a.b.c.d, a mapped address also as IPv4).
  N6  the subject commonName is never a constrained name in the default profile (only `webpki` applies dNSName
      constraints to it, and only when the leaf has no subjectAltName).
The case is trusted exactly when the peer name matches and no name is outside the constraints.

Without a peer name (`certkit evaluate` with no --host/--ip/--email: policy basic, which always uses the `rfc5280`
profile) nothing is matched and N1–N6 apply to the SAN entries and emailAddress attributes, with two more rules
of that profile (Docs/Profiles.md):
  R1  `rfc5280.name-constraints-dns-form`: a dNSName subtree that starts with a period breaks RFC 5280 §4.2.1.10
      (`NameConstraints`, whatever the leaf).
  R2  `rfc5280.name-constraints-valid-names`: a subjectAltName that is not a valid name of its type never
      satisfies a permitted subtree nor lies outside an excluded one, when the CA has subtrees of its form. A
      valid dNSName is in the preferred name syntax of RFC 1034 §3.5 / RFC 1123 §2.1 as RFC 5280 §4.2.1.6 asks:
      letters, digits, hyphens, labels of 1–63 characters, a whole left-most "*" label as a wildcard, and no
      trailing dot (the preferred syntax has none: "www.example.com." is not one).
"""

import re

import ipaddress


def _normalize(name):
    name = name.lower()
    return name[:-1] if name.endswith(".") else name


# ------------------------------------------------------------------------------------------------ peer name
def _dns_pattern_matches(pattern, host):
    if "*" not in pattern:
        return pattern == host
    labels, host_labels = pattern.split("."), host.split(".")
    if len(labels) < 3 or labels[0] != "*" or any("*" in l or not l for l in labels[1:]):
        return False
    return len(host_labels) == len(labels) and host_labels[0] != "" and host_labels[1:] == labels[1:]


def peer_matches(peer, sans, email_attrs):
    kind, value = peer
    sans = sans or []
    if kind == "host":
        host = _normalize(value)
        return any(form == "dns" and not text.endswith(".") and _dns_pattern_matches(_normalize(text), host)
                   for form, text in sans)
    if kind == "ip":
        wanted = ipaddress.ip_address(value).packed
        return any(form == "ip" and ipaddress.ip_address(text).packed == wanted for form, text in sans)
    wanted = value.lower()
    return any(form == "email" and text.lower() == wanted for form, text in sans) or \
        any(a.lower() == wanted for a in email_attrs)


# ------------------------------------------------------------------------------------------------ constraints
def _dns_within(host, base):
    host, base = _normalize(host), _normalize(base)
    if base == "":
        return True
    if base.startswith("."):
        return host.endswith(base)
    return host == base or host.endswith("." + base)


def _wildcard_excluded(host, excluded_bases):
    host = _normalize(host)
    if not host.startswith("*."):
        return False
    domain = host[2:]
    for base in excluded_bases:
        base = _normalize(base)
        if "." in base and not base.startswith(".") and base.split(".", 1)[1] == domain:
            return True
    return False


def _email_within(address, base, exact_local_part=False):
    if base.startswith("@"):
        base = base[1:]
    if "@" in base:
        if exact_local_part:
            local, host = address.rsplit("@", 1)
            base_local, base_host = base.rsplit("@", 1)
            return local == base_local and host.lower() == base_host.lower()
        return address.lower() == base.lower()
    address, base = address.lower(), base.lower()
    if "@" not in address:
        return False
    host = address.rsplit("@", 1)[1]
    return host.endswith(base) if base.startswith(".") else host == base


def _family(packed):
    if len(packed) == 4:
        return "v4"
    return "mapped" if packed[:12] == b"\x00" * 10 + b"\xff\xff" else "v6"


def _range(text):
    """(family, network) of a subtree written as network/prefix; a range inside ::ffff:0:0/96 is the mapped family."""
    net = ipaddress.ip_network(text, strict=False)
    if net.version == 6 and net.prefixlen >= 96 and net.network_address.packed[:12] == b"\x00" * 10 + b"\xff\xff":
        return "mapped", net
    return ("v4" if net.version == 4 else "v6"), net


def _ip_permitted_by(packed, text):
    family, net = _range(text)
    return _family(packed) == family and ipaddress.ip_address(packed) in net


def _ip_excluded_by(packed, text):
    """Either spelling: the IPv4 address, its mapped IPv6 form."""
    _, net = _range(text)
    address = ipaddress.ip_address(packed)
    spellings = {address}
    if address.version == 4:
        spellings.add(ipaddress.IPv6Address(b"\x00" * 10 + b"\xff\xff" + packed))
    elif address.ipv4_mapped is not None:
        spellings.add(address.ipv4_mapped)
    return any(s.version == net.version and s in net for s in spellings)


def allowed(name, permitted, excluded):
    """N1–N5 for one (form, value) name; subtrees are (form, value)."""
    form, value = name
    same_p = [v for f, v in permitted if f == form]
    same_e = [v for f, v in excluded if f == form]
    if form == "ip":
        packed = ipaddress.ip_address(value).packed
        if same_p and not any(_ip_permitted_by(packed, r) for r in same_p):
            return False
        return not any(_ip_excluded_by(packed, r) for r in same_e)
    within = _dns_within if form == "dns" else _email_within
    permitted_within = _dns_within if form == "dns" else (lambda a, b: _email_within(a, b, exact_local_part=True))
    if same_p and not any(permitted_within(value, b) for b in same_p):
        return False
    if any(within(value, b) for b in same_e):
        return False
    if form == "dns" and _wildcard_excluded(value, same_e):
        return False
    return True


_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def _valid_dns_name(text):
    """R2: preferred name syntax, a whole left-most '*' label allowed, no trailing dot."""
    host = text[2:] if text.startswith("*.") else text
    return 0 < len(host) <= 253 and all(_LABEL.match(label) for label in host.split("."))


def _expected_basic(permitted, excluded, sans, email_attrs):
    """R1, R2 and N1–N6 without a peer name (policy basic, profile rfc5280)."""
    checks, violations = set(), []
    if any(f == "dns" and v.startswith(".") for f, v in permitted + excluded):
        checks.add("NameConstraints")
        violations.append("dns-form:leading period")
    forms = {f for f, _ in permitted + excluded}
    for name in list(sans or []) + [("email", a) for a in email_attrs]:
        invalid = name[0] == "dns" and not _valid_dns_name(name[1])
        if (invalid and name[0] in forms) or not allowed(name, permitted, excluded):
            violations.append(f"{name[0]}:{name[1]}")
    if len(violations) > (1 if "dns-form:leading period" in violations else 0):
        checks.add("NameConstraints")
    return {"trusted": not checks, "checks": sorted(checks), "violations": violations}


def expected(permitted, excluded, sans, email_attrs, peer):
    """{"trusted": bool, "checks": [...]} for one case (the checks certkit should report, sorted); peer None: the
    basic policy (no peer name)."""
    if peer is None:
        return _expected_basic(permitted, excluded, sans, email_attrs)
    checks = set()
    if not peer_matches(peer, sans, email_attrs):
        checks.add("Email" if peer[0] == "email" else "SSLHostname")
    peer_form = {"host": "dns", "ip": "ip", "email": "email"}[peer[0]]
    names = list(sans or []) + [("email", a) for a in email_attrs] + [(peer_form, peer[1])]
    violations = [n for n in names if not allowed(n, permitted, excluded)]
    if violations:
        checks.add("NameConstraints")
    return {"trusted": not checks, "checks": sorted(checks), "violations": [f"{f}:{v}" for f, v in violations]}
