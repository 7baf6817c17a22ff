"""Seed PKIs and the Case they start: a root, one or two intermediates and a leaf that every verifier (certkit,
OpenSSL, GnuTLS, pyca's web-PKI verifier) accepts, built to the CA/B Forum profile so that any difference a
mutation brings comes from the mutation."""

import datetime as dt

import der
import keys
import x509gen as X

UTC = dt.timezone.utc
# One fixed verification time for every verifier (GnuTLS through libfaketime), so results never drift.
VERIFY_AT = dt.datetime(2025, 6, 1, 12, 0, 0, tzinfo=UTC)

HOST = "www.example.com"
LEAF_DNS = ["www.example.com", "example.com", "*.wild.example.com"]
LEAF_IPS = ["192.0.2.10", "2001:db8::10"]

SEEDS = {
    # name: (root key, [intermediate keys], leaf key)
    "rsa": ("rsa2048-root", ["rsa2048-int"], "rsa2048-leaf"),
    "ec": ("p384-root", ["p256-int"], "p256-leaf"),
    "mixed": ("p256-root", ["rsa2048-int"], "p256-leaf"),
    "rsa-deep": ("rsa2048-root", ["rsa2048-int", "rsa2048-int2"], "rsa2048-leaf"),
    "ec-deep": ("p256-root", ["p384-int", "p256-int2"], "rsa2048-leaf"),
    "rsa-short": ("rsa2048-root", [], "rsa2048-leaf"),
}
SEED_WEIGHTS = {"rsa": 5, "ec": 4, "mixed": 2, "rsa-deep": 2, "ec-deep": 1, "rsa-short": 1}


def _d(*a):
    return dt.datetime(*a, tzinfo=UTC)


class Case:
    def __init__(self, seed_name: str):
        self.seed_name = seed_name
        self.mutations = []  # tags, in order
        self.host = HOST
        self.at = VERIFY_AT
        self.crls = []  # X.CRL
        self.crl_mode = False
        self.policy_check = False  # openssl verify -policy_check (set by policy.* mutations)
        self.anchors = ["root"]  # labels (or Cert objects)
        self.presented = None  # None: leaf + intermediates (leaf first); else list of labels/Certs
        self.extra = []  # more Certs appended to the presented chain
        self.certs = {}
        self.order = []  # labels, root first (encoding order)
        root_key, int_keys, leaf_key = SEEDS[seed_name]
        root = X.Cert("root", keys.get(root_key), X.name(("c", "XX", "printable"), ("o", "certkit differential"),
                                                         ("cn", "Differential Root CA")))
        root.serial = der.integer(0x01A1)
        root.not_before, root.not_after = _d(2020, 1, 1), _d(2040, 1, 1)
        root.exts = [
            X.Ext(X.OID["bc"], True, X.bc(True)),
            X.Ext(X.OID["ku"], True, X.ku("keyCertSign", "cRLSign")),
            X.Ext(X.OID["ski"], False, X.auto_ski),
        ]
        self.add(root)
        parent = root
        for i, kname in enumerate(int_keys):
            label = "int" if i == 0 else "int%d" % (i + 1)
            c = X.Cert(label, keys.get(kname), X.name(("c", "XX", "printable"), ("o", "certkit differential"),
                                                      ("cn", "Differential Intermediate CA %d" % (i + 1))), parent)
            c.serial = der.integer(0x02B2 + i)
            c.not_before, c.not_after = _d(2021, 1, 1), _d(2035, 1, 1)
            remaining = len(int_keys) - 1 - i
            c.exts = [
                X.Ext(X.OID["bc"], True, X.bc(True, remaining)),
                X.Ext(X.OID["ku"], True, X.ku("digitalSignature", "keyCertSign", "cRLSign")),
                X.Ext(X.OID["ski"], False, X.auto_ski),
                X.Ext(X.OID["aki"], False, X.auto_aki),
                X.Ext(X.OID["eku"], False, X.eku("serverAuth", "clientAuth")),
                X.Ext(X.OID["cp"], False, X.policies("2.23.140.1.2.1")),
            ]
            self.add(c)
            parent = c
        leaf = X.Cert("leaf", keys.get(leaf_key), X.name(("cn", HOST)), parent)
        leaf.serial = der.integer(0x5EED0123456789ABCDEF)
        leaf.not_before, leaf.not_after = _d(2025, 4, 1), _d(2025, 8, 30)
        usages = ["digitalSignature"] + (["keyEncipherment"] if X.key_kind(leaf.key) == "rsa" else [])
        leaf.exts = [
            X.Ext(X.OID["ku"], True, X.ku(*usages)),
            X.Ext(X.OID["eku"], False, X.eku("serverAuth", "clientAuth")),
            X.Ext(X.OID["san"], False, X.san(*[X.gn_dns(d) for d in LEAF_DNS], *[X.gn_ip(i) for i in LEAF_IPS])),
            X.Ext(X.OID["aki"], False, X.auto_aki),
            X.Ext(X.OID["ski"], False, X.auto_ski),
            X.Ext(X.OID["cp"], False, X.policies("2.23.140.1.2.1")),
            X.Ext(X.OID["bc"], True, X.bc(False)),
        ]
        self.add(leaf)

    def add(self, cert, position=None):
        self.certs[cert.label] = cert
        if position is None:
            self.order.append(cert.label)
        else:
            self.order.insert(position, cert.label)

    # --- convenience
    @property
    def leaf(self):
        return self.certs["leaf"]

    @property
    def root(self):
        return self.certs["root"]

    def intermediates(self):
        return [self.certs[l] for l in self.order if l not in ("root", "leaf")]

    def cas(self):
        return [self.certs[l] for l in self.order if l != "leaf"]

    def tag(self, t):
        self.mutations.append(t)

    # --- encoding
    def encode(self):
        for label in self.order:
            self.certs[label].encode()
        for c in self.extra:
            if c.der is None:
                c.encode()
        for crl in self.crls:
            crl.encode()

    def _resolve(self, items):
        return [self.certs[i] if isinstance(i, str) else i for i in items]

    def anchor_ders(self):
        return [c.der for c in self._resolve(self.anchors)]

    def presented_ders(self):
        if self.presented is not None:
            chain = self._resolve(self.presented)
        else:
            chain = [self.leaf] + list(reversed(self.intermediates()))
        return [c.der for c in chain] + [c.der for c in self.extra]

    def crl_ders(self):
        return [c.der for c in self.crls]
