"""Certificates and CRLs as editable field lists, encoded and signed here byte by byte.

A `Cert` keeps each TBS field as DER bytes (or as a callable evaluated at encoding time, for values that
depend on another certificate: issuer name, AKI, SKI, default signature algorithm). A mutation edits fields;
`Chain.encode()` then encodes every certificate from the root down and signs each TBS with its issuer's key,
so a mutated certificate still carries a valid signature unless the mutation is about the signature."""

import datetime as dt
import hashlib
import ipaddress

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, padding, rsa, utils

import der

# ---------------------------------------------------------------- OIDs

OID = {
    "cn": "2.5.4.3",
    "o": "2.5.4.10",
    "c": "2.5.4.6",
    "ou": "2.5.4.11",
    "email": "1.2.840.113549.1.9.1",
    "ski": "2.5.29.14",
    "ku": "2.5.29.15",
    "san": "2.5.29.17",
    "ian": "2.5.29.18",
    "bc": "2.5.29.19",
    "crlnum": "2.5.29.20",
    "reason": "2.5.29.21",
    "nc": "2.5.29.30",
    "cdp": "2.5.29.31",
    "cp": "2.5.29.32",
    "pm": "2.5.29.33",
    "aki": "2.5.29.35",
    "pc": "2.5.29.36",
    "eku": "2.5.29.37",
    "idp": "2.5.29.28",
    "deltacrl": "2.5.29.27",
    "certissuer": "2.5.29.29",
    "inhibit": "2.5.29.54",
    "aia": "1.3.6.1.5.5.7.1.1",
    "tlsfeature": "1.3.6.1.5.5.7.1.24",
    "ctpoison": "1.3.6.1.4.1.11129.2.4.3",
    "sct": "1.3.6.1.4.1.11129.2.4.2",
    "ns-cert-type": "2.16.840.1.113730.1.1",
    "unknown": "1.3.6.1.4.1.55555.1.1",
}

EKU = {
    "serverAuth": "1.3.6.1.5.5.7.3.1",
    "clientAuth": "1.3.6.1.5.5.7.3.2",
    "codeSigning": "1.3.6.1.5.5.7.3.3",
    "emailProtection": "1.3.6.1.5.5.7.3.4",
    "timeStamping": "1.3.6.1.5.5.7.3.8",
    "ocspSigning": "1.3.6.1.5.5.7.3.9",
    "any": "2.5.29.37.0",
    "nsSGC": "2.16.840.1.113730.4.1",
    "msSGC": "1.3.6.1.4.1.311.10.3.3",
}

# Signature algorithm OIDs: name -> (oid, params) where params is "null", "absent" or raw DER bytes.
SIGALG = {
    "md2WithRSA": ("1.2.840.113549.1.1.2", "null"),
    "md4WithRSA": ("1.2.840.113549.1.1.3", "null"),
    "md5WithRSA": ("1.2.840.113549.1.1.4", "null"),
    "sha1WithRSA": ("1.2.840.113549.1.1.5", "null"),
    "sha224WithRSA": ("1.2.840.113549.1.1.14", "null"),
    "sha256WithRSA": ("1.2.840.113549.1.1.11", "null"),
    "sha384WithRSA": ("1.2.840.113549.1.1.12", "null"),
    "sha512WithRSA": ("1.2.840.113549.1.1.13", "null"),
    "sha3-256WithRSA": ("2.16.840.1.101.3.4.3.14", "absent"),
    "ripemd160WithRSA": ("1.3.36.3.3.1.2", "null"),
    "oiw-md5WithRSA": ("1.3.14.3.2.3", "null"),
    "oiw-md4WithRSA": ("1.3.14.3.2.4", "null"),
    "oiw-shaWithRSA": ("1.3.14.3.2.15", "null"),
    "oiw-sha1WithRSA": ("1.3.14.3.2.29", "null"),
    "oiw-sha1": ("1.3.14.3.2.26", "null"),
    "oiw-dsaWithSHA1": ("1.3.14.3.2.27", "absent"),
    "rsaEncryption": ("1.2.840.113549.1.1.1", "null"),
    "rsassa-pss": ("1.2.840.113549.1.1.10", "pss"),
    "ecdsa-with-SHA1": ("1.2.840.10045.4.1", "absent"),
    "ecdsa-with-SHA224": ("1.2.840.10045.4.3.1", "absent"),
    "ecdsa-with-SHA256": ("1.2.840.10045.4.3.2", "absent"),
    "ecdsa-with-SHA384": ("1.2.840.10045.4.3.3", "absent"),
    "ecdsa-with-SHA512": ("1.2.840.10045.4.3.4", "absent"),
    "ecdsa-with-SHA3-256": ("2.16.840.1.101.3.4.3.10", "absent"),
    "dsa-with-SHA256": ("2.16.840.1.101.3.4.3.2", "absent"),
    "Ed25519": ("1.3.101.112", "absent"),
    "Ed448": ("1.3.101.113", "absent"),
    "gost": ("1.2.643.7.1.1.3.2", "absent"),
    "sm2-sm3": ("1.2.156.10197.1.501", "absent"),
    "unknown": ("1.3.6.1.4.1.55555.9.9", "absent"),
    "unknown-null": ("1.3.6.1.4.1.55555.9.10", "null"),
}

HASH_OID = {
    "md5": "1.2.840.113549.2.5",
    "sha1": "1.3.14.3.2.26",
    "sha224": "2.16.840.1.101.3.4.2.4",
    "sha256": "2.16.840.1.101.3.4.2.1",
    "sha384": "2.16.840.1.101.3.4.2.2",
    "sha512": "2.16.840.1.101.3.4.2.3",
}

HASHES = {
    "md5": hashes.MD5,
    "sha1": hashes.SHA1,
    "sha224": hashes.SHA224,
    "sha256": hashes.SHA256,
    "sha384": hashes.SHA384,
    "sha512": hashes.SHA512,
    "sha3-256": hashes.SHA3_256,
}


def alg_id(name: str, params=None) -> bytes:
    """AlgorithmIdentifier for a named signature algorithm (params override: "null", "absent", bytes)."""
    dotted, default = SIGALG[name]
    p = default if params is None else params
    if p == "pss":
        p = pss_params("sha256", "sha256", 32)
    if p == "null":
        return der.seq(der.oid(dotted), der.null())
    if p == "absent":
        return der.seq(der.oid(dotted))
    return der.seq(der.oid(dotted), p)


def pss_params(hash_name: str, mgf_hash: str, salt: int, trailer=None, explicit_defaults=False) -> bytes:
    parts = []
    if hash_name != "sha1" or explicit_defaults:
        parts.append(der.ctx(0, der.seq(der.oid(HASH_OID[hash_name]), der.null())))
    if mgf_hash != "sha1" or explicit_defaults:
        parts.append(der.ctx(1, der.seq(der.oid("1.2.840.113549.1.1.8"),
                                        der.seq(der.oid(HASH_OID[mgf_hash]), der.null()))))
    if salt != 20 or explicit_defaults:
        parts.append(der.ctx(2, der.integer(salt)))
    if trailer is not None:
        parts.append(der.ctx(3, der.integer(trailer)))
    return der.seq(*parts)


# ---------------------------------------------------------------- keys and signatures


def key_kind(key) -> str:
    if isinstance(key, rsa.RSAPrivateKey):
        return "rsa"
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return "ec"
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return "ed25519"
    if isinstance(key, ed448.Ed448PrivateKey):
        return "ed448"
    raise ValueError(type(key))


def spki(key) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def spki_key_bits(spki_der: bytes) -> bytes:
    """The subjectPublicKey BIT STRING contents (without the unused-bits octet)."""
    bitstr = der.children(spki_der)[1]
    _, hl, _ = der.parse_tlv(bitstr)
    return bitstr[hl + 1 :]


def default_signing(key):
    """(signature algorithm name, scheme, hash) that a well-behaved CA with `key` uses."""
    kind = key_kind(key)
    if kind == "rsa":
        return "sha256WithRSA", "pkcs1", "sha256"
    if kind == "ec":
        bits = key.curve.key_size
        h = "sha384" if bits == 384 else "sha512" if bits == 521 else "sha256"
        return "ecdsa-with-" + h.upper(), "ecdsa", h
    if kind == "ed25519":
        return "Ed25519", "eddsa", None
    return "Ed448", "eddsa", None


def sign(data: bytes, key, scheme: str, hash_name, salt=32, mgf_hash=None) -> bytes:
    if scheme == "garbage":
        size = 256
        if key_kind(key) == "ec":
            size = 72
        elif key_kind(key) == "rsa":
            size = key.key_size // 8
        return hashlib.sha512(data).digest() * (size // 64) + hashlib.sha512(data).digest()[: size % 64]
    if scheme == "empty":
        return b""
    kind = key_kind(key)
    h = HASHES[hash_name]() if hash_name else None
    if kind == "rsa":
        if scheme == "pss":
            mgf = HASHES[mgf_hash or hash_name]()
            return key.sign(data, padding.PSS(mgf=padding.MGF1(mgf), salt_length=salt), h)
        return key.sign(data, padding.PKCS1v15(), h)
    if kind == "ec":
        if hash_name in ("md5",):
            digest = hashlib.md5(data).digest()
            return key.sign(digest, ec.ECDSA(utils.Prehashed(hashes.MD5())))
        return key.sign(data, ec.ECDSA(h))
    return key.sign(data)


# ---------------------------------------------------------------- names


def name(*rdns) -> bytes:
    """Name from (attribute, value[, string type]) tuples, one attribute per RDN."""
    out = []
    for rdn in rdns:
        attr, value = rdn[0], rdn[1]
        kind = rdn[2] if len(rdn) > 2 else "utf8"
        out.append(der.set_(der.seq(der.oid(OID.get(attr, attr)), string(value, kind))))
    return der.seq(*out)


def string(value, kind: str) -> bytes:
    if kind == "utf8":
        return der.utf8(value)
    if kind == "printable":
        return der.printable(value)
    if kind == "ia5":
        return der.ia5(value)
    if kind == "bmp":
        return der.tlv(0x1E, value.encode("utf-16-be"))
    if kind == "t61":
        return der.tlv(0x14, value.encode("latin-1"))
    if kind == "raw":
        return value
    raise ValueError(kind)


# ---------------------------------------------------------------- extension values


def gn_dns(s) -> bytes:
    return der.tlv(0x82, s if isinstance(s, bytes) else s.encode("utf-8"))


def gn_ip(s) -> bytes:
    return der.tlv(0x87, s if isinstance(s, bytes) else ipaddress.ip_address(s).packed)


def gn_email(s) -> bytes:
    return der.tlv(0x81, s.encode())


def gn_uri(s) -> bytes:
    return der.tlv(0x86, s.encode())


def gn_dirname(name_der: bytes) -> bytes:
    return der.ctx(4, name_der)


def gn_other(type_oid: str, value: bytes) -> bytes:
    return der.ctx(0, der.oid(type_oid) + der.ctx(0, value))


def gn_rid(dotted: str) -> bytes:
    return der.tlv(0x88, der.oid_content(dotted))


def san(*gns) -> bytes:
    return der.seq(*gns)


def bc(ca: bool, pathlen=None, explicit_false=False) -> bytes:
    parts = []
    if ca or explicit_false:
        parts.append(der.boolean(ca))
    if pathlen is not None:
        parts.append(der.integer(pathlen))
    return der.seq(*parts)


KU_BITS = {
    "digitalSignature": 0,
    "nonRepudiation": 1,
    "keyEncipherment": 2,
    "dataEncipherment": 3,
    "keyAgreement": 4,
    "keyCertSign": 5,
    "cRLSign": 6,
    "encipherOnly": 7,
    "decipherOnly": 8,
}


def ku(*names) -> bytes:
    return der.named_bits([KU_BITS[n] for n in names])


def eku(*names) -> bytes:
    return der.seq(*[der.oid(EKU.get(n, n)) for n in names])


def ski_value(spki_der: bytes) -> bytes:
    return der.octet(hashlib.sha1(spki_key_bits(spki_der)).digest())


def aki_value(keyid: bytes) -> bytes:
    return der.seq(der.tlv(0x80, keyid))


def subtree(gn: bytes, minimum=None, maximum=None) -> bytes:
    parts = [gn]
    if minimum is not None:
        parts.append(der.tlv(0x80, der.integer_content(minimum)))
    if maximum is not None:
        parts.append(der.tlv(0x81, der.integer_content(maximum)))
    return der.seq(*parts)


def name_constraints(permitted=(), excluded=()) -> bytes:
    parts = []
    if permitted:
        parts.append(der.ctx(0, b"".join(permitted)))
    if excluded:
        parts.append(der.ctx(1, b"".join(excluded)))
    return der.seq(*parts)


def ip_net(cidr: str) -> bytes:
    net = ipaddress.ip_network(cidr, strict=False)
    return gn_ip(net.network_address.packed + net.netmask.packed)


def cdp(uri: str) -> bytes:
    return der.seq(der.seq(der.ctx(0, der.ctx(0, gn_uri(uri)))))


def aia_ocsp(uri: str) -> bytes:
    return der.seq(der.seq(der.oid("1.3.6.1.5.5.7.48.1"), gn_uri(uri)))


def policies(*oids) -> bytes:
    return der.seq(*[der.seq(der.oid(o)) for o in oids])


# ---------------------------------------------------------------- certificates


class Ext:
    __slots__ = ("oid", "critical", "value", "raw")

    def __init__(self, oid, critical, value, raw=None):
        self.oid = oid  # dotted string
        self.critical = critical  # True, False, or "explicit-false"
        self.value = value  # bytes or callable(cert) -> bytes (the extnValue contents)
        self.raw = raw  # bytes: the whole Extension encoding, overriding everything

    def encode(self, cert) -> bytes:
        if self.raw is not None:
            return self.raw
        value = self.value(cert) if callable(self.value) else self.value
        parts = [der.oid(self.oid)]
        if self.critical is True:
            parts.append(der.boolean(True))
        elif self.critical == "explicit-false":
            parts.append(der.boolean(False))
        parts.append(der.octet(value))
        return der.seq(*parts)


class Cert:
    """One certificate of a generated PKI. `issuer_cert` is the Cert whose key signs it (itself for a root)."""

    def __init__(self, label, key, subject, issuer_cert=None):
        self.label = label
        self.key = key
        self.signing_key = None  # overrides issuer_cert.key
        self.subject = subject
        self.issuer_cert = issuer_cert or self
        self.issuer = None  # None: the issuer certificate's subject
        self.version = 2  # None: omitted (v1); an int: encoded as [0] INTEGER
        self.version_raw = None
        self.serial = der.integer(0x1000)
        self.sigalg_tbs = None  # None: default for the signing key
        self.sigalg_outer = None  # None: same as TBS
        self.sign_scheme = None  # None: default for the key
        self.sign_hash = None
        self.sign_salt = 32
        self.sign_mgf = None
        self.sig_transform = None
        self.sig_unused_bits = 0
        self.not_before = None
        self.not_after = None
        self.validity_raw = None
        self.spki_override = None
        self.issuer_uid = None
        self.subject_uid = None
        self.exts = []  # list of Ext; None: no extensions field at all
        self.exts_field_raw = None
        self.tbs_trailing = b""
        self.cert_trailing = b""
        self.der = None

    # --- helpers for mutations
    def ext(self, key):
        oid = OID.get(key, key)
        for e in self.exts or []:
            if e.oid == oid:
                return e
        return None

    def set_ext(self, key, critical, value):
        oid = OID.get(key, key)
        e = self.ext(oid)
        if self.exts is None:
            self.exts = []
        if e is None:
            self.exts.append(Ext(oid, critical, value))
        else:
            e.critical, e.value, e.raw = critical, value, None

    def remove_ext(self, key):
        oid = OID.get(key, key)
        if self.exts is not None:
            self.exts = [e for e in self.exts if e.oid != oid]

    def spki(self) -> bytes:
        return self.spki_override if self.spki_override is not None else spki(self.key)

    def signer(self):
        return self.signing_key or self.issuer_cert.key

    def signing(self):
        name_, scheme, h = default_signing(self.signer())
        return (self.sign_scheme or scheme), (self.sign_hash if self.sign_hash is not None else h), name_

    def tbs(self) -> bytes:
        scheme, h, default_alg = self.signing()
        sigalg = self.sigalg_tbs if self.sigalg_tbs is not None else alg_id(default_alg)
        if callable(sigalg):
            sigalg = sigalg(self)
        issuer = self.issuer if self.issuer is not None else self.issuer_cert.subject
        parts = []
        if self.version_raw is not None:
            parts.append(self.version_raw)
        elif self.version is not None:
            parts.append(der.ctx(0, der.integer(self.version)))
        parts.append(self.serial)
        parts.append(sigalg)
        parts.append(issuer)
        if self.validity_raw is not None:
            parts.append(self.validity_raw)
        else:
            nb = self.not_before if isinstance(self.not_before, bytes) else der.time(self.not_before)
            na = self.not_after if isinstance(self.not_after, bytes) else der.time(self.not_after)
            parts.append(der.seq(nb, na))
        parts.append(self.subject)
        parts.append(self.spki())
        if self.issuer_uid is not None:
            parts.append(der.tlv(0x81, b"\x00" + self.issuer_uid))
        if self.subject_uid is not None:
            parts.append(der.tlv(0x82, b"\x00" + self.subject_uid))
        if self.exts_field_raw is not None:
            parts.append(self.exts_field_raw)
        elif self.exts is not None:
            parts.append(der.ctx(3, der.seq(*[e.encode(self) for e in self.exts])))
        return der.seq(*parts) + self.tbs_trailing

    def encode(self) -> bytes:
        tbs = self.tbs()
        scheme, h, default_alg = self.signing()
        outer = self.sigalg_outer
        if outer is None:
            outer = self.sigalg_tbs if self.sigalg_tbs is not None else alg_id(default_alg)
        if callable(outer):
            outer = outer(self)
        sig = sign(tbs, self.signer(), scheme, h, self.sign_salt, self.sign_mgf)
        if self.sig_transform:
            sig = self.sig_transform(sig)
        self.der = der.seq(tbs, outer, der.bitstring(sig, self.sig_unused_bits)) + self.cert_trailing
        return self.der


def auto_ski(cert) -> bytes:
    return ski_value(cert.spki())


def auto_aki(cert) -> bytes:
    issuer = cert.issuer_cert
    e = issuer.ext("ski")
    if e is not None and e.raw is None:
        v = e.value(issuer) if callable(e.value) else e.value
        try:
            _, hl, cl = der.parse_tlv(v)
            return aki_value(v[hl : hl + cl])
        except IndexError:
            pass
    return aki_value(hashlib.sha1(spki_key_bits(issuer.spki())).digest())


# ---------------------------------------------------------------- CRLs


class CRL:
    def __init__(self, issuer_cert, this_update, next_update):
        self.issuer_cert = issuer_cert
        self.issuer = None
        self.signing_key = None
        self.version = 1  # v2
        self.sigalg = None
        self.sigalg_outer = None
        self.sign_scheme = None
        self.sign_hash = None
        self.sig_transform = None
        self.this_update = this_update
        self.next_update = next_update
        self.entries = []  # list of (serial DER, revocation date, [Ext]) or raw bytes
        self.exts = [Ext(OID["crlnum"], False, der.integer(1)), Ext(OID["aki"], False, lambda _c: auto_aki_for(issuer_cert))]
        self.der = None

    def encode(self) -> bytes:
        key = self.signing_key or self.issuer_cert.key
        default_alg, scheme, h = default_signing(key)
        sigalg = self.sigalg if self.sigalg is not None else alg_id(default_alg)
        parts = []
        if self.version is not None:
            parts.append(der.integer(self.version))
        parts.append(sigalg)
        parts.append(self.issuer if self.issuer is not None else self.issuer_cert.subject)
        parts.append(self.this_update if isinstance(self.this_update, bytes) else der.time(self.this_update))
        if self.next_update is not None:
            parts.append(self.next_update if isinstance(self.next_update, bytes) else der.time(self.next_update))
        if self.entries:
            items = []
            for e in self.entries:
                if isinstance(e, bytes):
                    items.append(e)
                    continue
                serial, when, exts = e
                fields = [serial, der.time(when)]
                if exts:
                    fields.append(der.seq(*[x.encode(None) for x in exts]))
                items.append(der.seq(*fields))
            parts.append(der.seq(*items))
        if self.exts:
            parts.append(der.ctx(0, der.seq(*[x.encode(self) for x in self.exts])))
        tbs = der.seq(*parts)
        outer = self.sigalg_outer if self.sigalg_outer is not None else sigalg
        sig = sign(tbs, key, self.sign_scheme or scheme, self.sign_hash if self.sign_hash is not None else h)
        if self.sig_transform:
            sig = self.sig_transform(sig)
        self.der = der.seq(tbs, outer, der.bitstring(sig))
        return self.der


def auto_aki_for(cert) -> bytes:
    return aki_value(hashlib.sha1(spki_key_bits(cert.spki())).digest())
