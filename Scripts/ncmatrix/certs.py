"""Certificates of the name-constraint matrix: one root, one intermediate per constraint set, one leaf per
(SAN form, subject form). Built from bytes with the fixture package's DER encoder and seeded prime search
(Scripts/fixtures/certkit_fixtures: der.py, keys.py), so the output is byte-for-byte deterministic.

Every intermediate has the same subject and the same key, so every leaf (signed once, by that key) chains to
every intermediate: a chain is a pair (intermediate, leaf) and only the intermediate's nameConstraints differ.
Keys are RSA 2048 from a seeded prime search; signatures are RSASSA-PKCS1-v1_5 with SHA-256 (deterministic),
made by pyca/cryptography from the key's numbers.
"""

import hashlib
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures"))
from certkit_fixtures.keys import probable_prime as _probable_prime  # noqa: E402
from certkit_fixtures.der import (  # noqa: E402
    NULL, TRUE, bits, explicit, ext, ia5, int_bytes, oid, seq, set_of, ski_of, tlv, utctime,
    utf8,
)
from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import padding, rsa  # noqa: E402

from matrix import ip_bytes, ip_range_bytes  # noqa: E402

SHA256_RSA = seq(oid("1.2.840.113549.1.1.11"), NULL)
CN, O, EMAIL_ATTR = "2.5.4.3", "2.5.4.10", "1.2.840.113549.1.9.1"
SERVER_AUTH, CLIENT_AUTH, EMAIL_PROTECTION = "1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.4"


class RSAKey:
    """A deterministic 2048-bit RSA key (seeded prime search, as the fixture generators make theirs)."""

    def __init__(self, label):
        rng = random.Random("certkit ncmatrix rsa key " + label)
        e = 65537
        while True:
            p, q = _probable_prime(1024, rng), _probable_prime(1024, rng)
            if p != q and math.gcd(e, p - 1) == 1 and math.gcd(e, q - 1) == 1:
                break
        d = pow(e, -1, (p - 1) * (q - 1))
        public = rsa.RSAPublicNumbers(e, p * q)
        self.private = rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), public) \
            .private_key(unsafe_skip_rsa_key_validation=True)
        self.spki = public.public_key().public_bytes(serialization.Encoding.DER,
                                                     serialization.PublicFormat.SubjectPublicKeyInfo)

    def sign(self, data):
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())


def name(*attributes):
    return seq(*[set_of(seq(oid(o), ia5(v) if o == EMAIL_ATTR else utf8(v))) for o, v in attributes])


def general_name(form, value):
    if form == "dns":
        return tlv(0x82, value.encode())
    if form == "email":
        return tlv(0x81, value.encode())
    return tlv(0x87, ip_bytes(value))


def subtree_base(form, value):
    if form == "ip":
        return tlv(0x87, ip_range_bytes(value))
    return general_name(form, value)


def serial(label):
    return tlv(0x02, int_bytes(int.from_bytes(hashlib.sha256(b"certkit ncmatrix serial " + label.encode())
                                              .digest()[:16], "big") >> 1))


def certificate(label, subject, issuer, key, issuer_key, extensions, not_before, not_after):
    tbs = seq(explicit(0, tlv(0x02, b"\x02")), serial(label), SHA256_RSA, issuer,
              seq(utctime(not_before), utctime(not_after)), subject, key.spki, explicit(3, seq(*extensions)))
    return seq(tbs, SHA256_RSA, bits(issuer_key.sign(tbs)))


def key_ids(key, issuer_key):
    return [ext("2.5.29.14", tlv(0x04, ski_of(key))), ext("2.5.29.35", seq(tlv(0x80, ski_of(issuer_key))))]


class PKI:
    ROOT_NAME = name((O, "certkit ncmatrix"), (CN, "ncmatrix Root"))
    INT_NAME = name((O, "certkit ncmatrix"), (CN, "ncmatrix Constrained Intermediate"))

    def __init__(self):
        self.root_key, self.int_key, self.leaf_key = RSAKey("root"), RSAKey("int"), RSAKey("leaf")
        ca_ext = [ext("2.5.29.19", seq(TRUE), critical=True), ext("2.5.29.15", bits(b"\x06", 1), critical=True)]
        self.root = certificate("root", self.ROOT_NAME, self.ROOT_NAME, self.root_key, self.root_key,
                                ca_ext + [ext("2.5.29.14", tlv(0x04, ski_of(self.root_key)))],
                                "2029-01-01T00:00:00Z", "2045-01-01T00:00:00Z")
        self.ca_ext = ca_ext

    def intermediate(self, label, permitted, excluded):
        extensions = list(self.ca_ext) + key_ids(self.int_key, self.root_key)
        if permitted or excluded:
            parts = []
            if permitted:
                parts.append(tlv(0xA0, b"".join(seq(subtree_base(*s)) for s in permitted)))
            if excluded:
                parts.append(tlv(0xA1, b"".join(seq(subtree_base(*s)) for s in excluded)))
            extensions.append(ext("2.5.29.30", seq(*parts), critical=True))
        return certificate("int " + label, self.INT_NAME, self.ROOT_NAME, self.int_key, self.root_key, extensions,
                           "2029-06-01T00:00:00Z", "2040-01-01T00:00:00Z")

    def leaf(self, label, sans, common_name, email_attr):
        attributes = [(O, "certkit ncmatrix")]
        if email_attr is not None:
            attributes.append((EMAIL_ATTR, email_attr))
        if common_name is not None:
            attributes.append((CN, common_name))
        extensions = [ext("2.5.29.19", seq(), critical=True),
                      ext("2.5.29.15", bits(b"\xa0", 5), critical=True),
                      ext("2.5.29.37", seq(oid(SERVER_AUTH), oid(CLIENT_AUTH), oid(EMAIL_PROTECTION)))]
        extensions += key_ids(self.leaf_key, self.int_key)
        if sans is not None:
            extensions.append(ext("2.5.29.17", seq(*[general_name(f, v) for f, v in sans])))
        return certificate("leaf " + label, name(*attributes), self.INT_NAME, self.leaf_key, self.int_key,
                           extensions, "2030-01-01T00:00:00Z", "2031-06-01T00:00:00Z")
