"""The mutation catalogue. Each mutation edits a Case (fields, extensions, keys, names, times, CRLs, host,
anchors) and records a tag "family.name[:variant]@target"; the classifier in classify.py recognises explained
differences by these tags. Signing happens after all mutations (Case.encode), so every mutated certificate is
re-signed by its issuer's key unless the mutation is about the signature itself."""

import datetime as dt
import hashlib

import der
import keys
import pki
import x509gen as X

UTC = dt.timezone.utc
SEC = dt.timedelta(seconds=1)
DAY = dt.timedelta(days=1)

CATALOGUE = []  # (family, weight, function)


def mutation(family, weight=1):
    def wrap(fn):
        CATALOGUE.append((family, weight, fn))
        return fn

    return wrap


def pick_target(case, rng, choices=("leaf", "int", "root")):
    avail = [c for c in choices if c in case.certs]
    if "int" in choices:
        avail += [l for l in case.certs if l.startswith("int") and l != "int" and l not in avail]
    return rng.choice(avail) if avail else None


def nonminimal(tlv_bytes: bytes) -> bytes:
    """The same TLV with a long-form length (BER, not DER)."""
    tag, hl, cl = der.parse_tlv(tlv_bytes)
    return bytes([tag, 0x81, cl]) + tlv_bytes[hl:] if cl < 0x80 else bytes([tag, 0x82]) + cl.to_bytes(2, "big") + tlv_bytes[hl:]


def ext_value(cert, e):
    return e.value(cert) if callable(e.value) else e.value


# ======================================================================== signature algorithms


@mutation("sigalg", 6)
def m_sigalg_oid(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    kind = X.key_kind(c.signer())
    if kind == "rsa":
        choices = [
            ("unknown", "sha256"), ("unknown-null", "sha256"), ("oiw-sha1WithRSA", "sha1"), ("oiw-sha1WithRSA", "sha256"),
            ("oiw-md5WithRSA", "md5"), ("oiw-md5WithRSA", "sha256"), ("oiw-shaWithRSA", "sha1"), ("oiw-sha1", "sha1"),
            ("oiw-md4WithRSA", "sha256"), ("oiw-dsaWithSHA1", "sha1"), ("md5WithRSA", "md5"), ("md2WithRSA", "sha256"),
            ("md4WithRSA", "sha256"), ("sha1WithRSA", "sha1"), ("sha224WithRSA", "sha224"), ("sha384WithRSA", "sha384"),
            ("sha512WithRSA", "sha512"), ("sha3-256WithRSA", "sha3-256"), ("ripemd160WithRSA", "sha256"),
            ("rsaEncryption", "sha256"), ("sha256WithRSA", "sha384"), ("sha256WithRSA", "sha1"), ("sha256WithRSA", "md5"),
            ("sha384WithRSA", "sha256"), ("ecdsa-with-SHA256", "sha256"), ("Ed25519", "sha256"), ("gost", "sha256"),
            ("sm2-sm3", "sha256"), ("dsa-with-SHA256", "sha256"),
        ]
    elif kind == "ec":
        choices = [
            ("unknown", "sha256"), ("ecdsa-with-SHA1", "sha1"), ("ecdsa-with-SHA224", "sha224"),
            ("ecdsa-with-SHA256", "sha256"), ("ecdsa-with-SHA384", "sha384"), ("ecdsa-with-SHA512", "sha512"),
            ("ecdsa-with-SHA256", "sha384"), ("ecdsa-with-SHA384", "sha256"), ("ecdsa-with-SHA256", "sha1"),
            ("ecdsa-with-SHA256", "md5"), ("sha256WithRSA", "sha256"), ("Ed25519", "sha256"),
            ("ecdsa-with-SHA3-256", "sha3-256"), ("oiw-sha1WithRSA", "sha1"), ("sm2-sm3", "sha256"), ("gost", "sha256"),
        ]
    else:
        choices = [("unknown", None), ("sha256WithRSA", None), ("ecdsa-with-SHA256", None), ("Ed448", None)]
    alg, h = rng.choice(choices)
    c.sigalg_tbs = X.alg_id(alg)
    c.sign_hash = h
    if rng.random() < 0.15 and kind != "ed25519":
        c.sign_scheme = "garbage"
        case.tag("sigalg.oid:%s/garbage@%s" % (alg, t))
    else:
        case.tag("sigalg.oid:%s/%s@%s" % (alg, h, t))


@mutation("sigalg", 2)
def m_sigalg_params(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    default_alg, _, _ = X.default_signing(c.signer())
    v = rng.choice(["null", "absent", "int0", "garbage-seq", "oid", "empty-octet"])
    params = {"null": "null", "absent": "absent", "int0": der.integer(0), "garbage-seq": der.seq(der.integer(1)),
              "oid": der.oid("1.2.3.4"), "empty-octet": der.octet(b"")}[v]
    if X.SIGALG[default_alg][1] == v:
        return None
    c.sigalg_tbs = X.alg_id(default_alg, params)
    case.tag("sigalg.params:%s@%s" % (v, t))


@mutation("sigalg", 2)
def m_sigalg_inner_outer(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    kind = X.key_kind(c.signer())
    if kind == "rsa":
        inner, outer = rng.choice([("sha256WithRSA", "sha384WithRSA"), ("sha256WithRSA", "sha1WithRSA"),
                                   ("sha384WithRSA", "sha256WithRSA"), ("unknown", "sha256WithRSA"),
                                   ("sha256WithRSA", "unknown"), ("sha256WithRSA", "oiw-sha1WithRSA")])
    elif kind == "ec":
        inner, outer = rng.choice([("ecdsa-with-SHA256", "ecdsa-with-SHA384"), ("ecdsa-with-SHA384", "ecdsa-with-SHA256"),
                                   ("unknown", "ecdsa-with-SHA256"), ("ecdsa-with-SHA256", "unknown"),
                                   ("ecdsa-with-SHA256", "ecdsa-with-SHA1")])
    else:
        return None
    signer = rng.choice(["inner", "outer"])
    alg = inner if signer == "inner" else outer
    h = {"sha256WithRSA": "sha256", "sha384WithRSA": "sha384", "sha1WithRSA": "sha1", "oiw-sha1WithRSA": "sha1",
         "ecdsa-with-SHA256": "sha256", "ecdsa-with-SHA384": "sha384", "ecdsa-with-SHA1": "sha1"}.get(alg, "sha256")
    c.sigalg_tbs = X.alg_id(inner)
    c.sigalg_outer = X.alg_id(outer)
    c.sign_hash = h
    case.tag("sigalg.mismatch:%s/%s/signed-%s@%s" % (inner, outer, signer, t))


@mutation("sigalg", 2)
def m_sigalg_pss(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    if X.key_kind(c.signer()) != "rsa":
        return None
    v = rng.choice(["ok256", "ok384", "hash-mismatch", "salt-mismatch", "mgf-mismatch", "trailer2", "absent",
                    "defaults-sha1", "explicit-defaults", "salt0", "params-null"])
    c.sign_scheme = "pss"
    c.sign_hash, c.sign_salt, c.sign_mgf = "sha256", 32, "sha256"
    params = X.pss_params("sha256", "sha256", 32)
    if v == "ok384":
        c.sign_hash, c.sign_salt, c.sign_mgf = "sha384", 48, "sha384"
        params = X.pss_params("sha384", "sha384", 48)
    elif v == "hash-mismatch":
        c.sign_hash, c.sign_mgf = "sha384", "sha384"
    elif v == "salt-mismatch":
        c.sign_salt = 20
    elif v == "mgf-mismatch":
        c.sign_mgf = "sha1"
    elif v == "trailer2":
        params = X.pss_params("sha256", "sha256", 32, trailer=2)
    elif v == "absent":
        params = "absent"
    elif v == "defaults-sha1":
        c.sign_hash, c.sign_salt, c.sign_mgf = "sha1", 20, "sha1"
        params = X.pss_params("sha1", "sha1", 20)
    elif v == "explicit-defaults":
        c.sign_hash, c.sign_salt, c.sign_mgf = "sha1", 20, "sha1"
        params = X.pss_params("sha1", "sha1", 20, explicit_defaults=True)
    elif v == "salt0":
        c.sign_salt = 0
        params = X.pss_params("sha256", "sha256", 0)
    elif v == "params-null":
        params = "null"
    c.sigalg_tbs = X.alg_id("rsassa-pss", params)
    case.tag("sigalg.pss:%s@%s" % (v, t))


@mutation("sig", 3)
def m_signature_value(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    v = rng.choice(["flip-last", "flip-first", "truncate", "append", "empty", "garbage", "unused-bits", "wrong-key",
                    "zero", "leaf-self-signed"])
    if v == "flip-last":
        c.sig_transform = lambda s: s[:-1] + bytes([s[-1] ^ 1])
    elif v == "flip-first":
        c.sig_transform = lambda s: bytes([s[0] ^ 0x80]) + s[1:]
    elif v == "truncate":
        c.sig_transform = lambda s: s[:-1]
    elif v == "append":
        c.sig_transform = lambda s: s + b"\x00"
    elif v == "empty":
        c.sign_scheme = "empty"
    elif v == "garbage":
        c.sign_scheme = "garbage"
    elif v == "unused-bits":
        c.sig_unused_bits = 1
    elif v == "zero":
        c.sig_transform = lambda s: b"\x00" * len(s)
    elif v == "wrong-key":
        kind = X.key_kind(c.signer())
        c.signing_key = keys.get({"rsa": "rsa2048-other", "ec": "p256-other", "ed25519": "ed25519-root", "ed448": "ed25519"}[kind])
    elif v == "leaf-self-signed":
        if t != "leaf":
            return None
        c.signing_key = c.key
    case.tag("sig.%s@%s" % (v, t))


# ======================================================================== keys


@mutation("key", 4)
def m_key_type(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    k = rng.choice(["rsa1024", "rsa1536", "rsa3072", "rsa2048-e3", "p521", "p224", "p192", "k256", "ed25519", "ed448",
                    "p384-int", "rsa2048-other"])
    c.key = keys.get(k)
    if t == "leaf":
        kind = X.key_kind(c.key)
        usages = ["digitalSignature"] + (["keyEncipherment"] if kind == "rsa" else [])
        c.set_ext("ku", True, X.ku(*usages))
    case.tag("key.type:%s@%s" % (k, t))


@mutation("key", 3)
def m_spki(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    kind = X.key_kind(c.key)
    spki = X.spki(c.key)
    alg, bits = der.children(spki)
    if kind == "rsa":
        v = rng.choice(["no-null", "pss-oid", "unused-bits", "trailing", "int-params", "modulus-leading-zero",
                        "negative-modulus"])
        if v == "no-null":
            new = der.seq(der.seq(der.oid("1.2.840.113549.1.1.1")), bits)
        elif v == "pss-oid":
            new = der.seq(der.seq(der.oid("1.2.840.113549.1.1.10")), bits)
        elif v == "int-params":
            new = der.seq(der.seq(der.oid("1.2.840.113549.1.1.1"), der.integer(0)), bits)
        elif v == "unused-bits":
            _, hl, _ = der.parse_tlv(bits)
            new = der.seq(alg, der.bitstring(bits[hl + 1:], 1))
        elif v == "trailing":
            new = der.seq(alg, bits, der.null())
        else:
            pub = c.key.public_key().public_numbers()
            if v == "modulus-leading-zero":
                n = der.integer_raw(b"\x00" + der.integer_content(pub.n))
            else:
                n = der.integer_raw(der.integer_content(pub.n)[1:])  # drops the sign octet: negative modulus
            new = der.seq(alg, der.bitstring(der.seq(n, der.integer(pub.e))))
    elif kind == "ec":
        v = rng.choice(["curve-p384", "curve-k256", "curve-unknown", "no-curve", "compressed", "unused-bits", "hybrid",
                        "infinity", "ecdh-oid"])
        curve = {"curve-p384": "1.3.132.0.34", "curve-k256": "1.3.132.0.10", "curve-unknown": "1.3.132.0.99"}
        _, hl, _ = der.parse_tlv(bits)
        point = bits[hl + 1:]
        if v in curve:
            new = der.seq(der.seq(der.oid("1.2.840.10045.2.1"), der.oid(curve[v])), bits)
        elif v == "no-curve":
            new = der.seq(der.seq(der.oid("1.2.840.10045.2.1")), bits)
        elif v == "ecdh-oid":
            new = der.seq(der.seq(der.oid("1.3.132.1.12"), der.children(alg)[1]), bits)
        elif v == "compressed":
            from cryptography.hazmat.primitives import serialization as S
            comp = c.key.public_key().public_bytes(S.Encoding.X962, S.PublicFormat.CompressedPoint)
            new = der.seq(alg, der.bitstring(comp))
        elif v == "hybrid":
            y_odd = point[-1] & 1
            new = der.seq(alg, der.bitstring(bytes([6 + y_odd]) + point[1:]))
        elif v == "infinity":
            new = der.seq(alg, der.bitstring(b"\x00"))
        else:
            new = der.seq(alg, der.bitstring(point, 1))
    else:
        v = rng.choice(["params-null", "trailing"])
        new = der.seq(der.seq(der.children(alg)[0], der.null()), bits) if v == "params-null" else der.seq(alg, bits, der.null())
    c.spki_override = new
    case.tag("key.spki:%s@%s" % (v, t))


# ======================================================================== extensions (generic)

EXT_NAMES = {v: k for k, v in X.OID.items()}


def _pick_ext(c, rng):
    if not c.exts:
        return None
    return rng.choice(c.exts)


@mutation("ext", 3)
def m_ext_remove(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    e = _pick_ext(c, rng)
    if e is None:
        return None
    c.exts.remove(e)
    case.tag("ext.remove:%s@%s" % (EXT_NAMES.get(e.oid, e.oid), t))


@mutation("ext", 3)
def m_ext_duplicate(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    e = _pick_ext(c, rng)
    if e is None:
        return None
    v = rng.choice(["same", "different"])
    if v == "same":
        dup = X.Ext(e.oid, e.critical, e.value)
    else:
        alt = {
            X.OID["bc"]: X.bc(t != "leaf") if False else X.bc(t == "leaf"),
            X.OID["ku"]: X.ku("digitalSignature", "keyCertSign", "cRLSign", "keyEncipherment"),
            X.OID["eku"]: X.eku("any"),
            X.OID["san"]: X.san(X.gn_dns("evil.example.net")),
        }.get(e.oid, ext_value(c, e))
        dup = X.Ext(e.oid, e.critical, alt)
    c.exts.insert(rng.randrange(len(c.exts) + 1), dup)
    case.tag("ext.dup:%s/%s@%s" % (EXT_NAMES.get(e.oid, e.oid), v, t))


@mutation("ext", 3)
def m_ext_criticality(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    e = _pick_ext(c, rng)
    if e is None:
        return None
    v = rng.choice(["flip", "flip", "explicit-false", "ber-true"])
    name = EXT_NAMES.get(e.oid, e.oid)
    if v == "flip":
        e.critical = not (e.critical is True)
        v = "critical" if e.critical else "noncritical"
    elif v == "explicit-false":
        e.critical = "explicit-false"
    else:
        value = ext_value(c, e)
        e.raw = der.seq(der.oid(e.oid), der.tlv(0x01, b"\x01"), der.octet(value))
    case.tag("ext.criticality:%s/%s@%s" % (name, v, t))


@mutation("ext", 4)
def m_ext_malformed(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    e = _pick_ext(c, rng)
    if e is None:
        return None
    value = ext_value(c, e)
    v = rng.choice(["truncate", "empty", "trailing", "null", "wrap-seq", "wrong-tag", "nonminimal-length", "garbage"])
    if v == "truncate":
        new = value[:-1]
    elif v == "empty":
        new = b""
    elif v == "trailing":
        new = value + b"\x05\x00"
    elif v == "null":
        new = der.null()
    elif v == "wrap-seq":
        new = der.seq(value)
    elif v == "wrong-tag":
        new = bytes([0x31 if value[0] == 0x30 else 0x30]) + value[1:]
    elif v == "nonminimal-length":
        new = nonminimal(value)
    else:
        new = hashlib.sha256(value).digest()[:12]
    e.value = new
    case.tag("ext.malformed:%s/%s@%s" % (EXT_NAMES.get(e.oid, e.oid), v, t))


@mutation("ext", 3)
def m_ext_add(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    v = rng.choice(["unknown-critical", "unknown-noncritical", "ctpoison-critical", "policy-constraints-critical",
                    "inhibit-any-critical", "policy-mappings-critical", "tlsfeature-critical", "aia-critical",
                    "cdp-critical", "ian-critical", "ns-cert-type-client", "ns-cert-type-critical", "sct-critical",
                    "cp-critical-unknown-policy", "cp-critical-any", "subject-dir-attrs-critical", "ski-critical",
                    "aki-critical", "aki-issuer-serial", "freshest-crl-critical"])
    oid, crit, val = {
        "unknown-critical": (X.OID["unknown"], True, der.null()),
        "unknown-noncritical": (X.OID["unknown"], False, der.null()),
        "ctpoison-critical": (X.OID["ctpoison"], True, der.null()),
        "policy-constraints-critical": (X.OID["pc"], True, der.seq(der.tlv(0x80, b"\x00"))),
        "inhibit-any-critical": (X.OID["inhibit"], True, der.integer(0)),
        "policy-mappings-critical": (X.OID["pm"], True, der.seq(der.seq(der.oid("2.23.140.1.2.1"), der.oid("1.2.3.4")))),
        "tlsfeature-critical": ("1.3.6.1.5.5.7.1.24", True, der.seq(der.integer(5))),
        "aia-critical": (X.OID["aia"], True, X.aia_ocsp("http://ocsp.example.com/")),
        "cdp-critical": (X.OID["cdp"], True, X.cdp("http://crl.example.com/x.crl")),
        "ian-critical": (X.OID["ian"], True, X.san(X.gn_dns("issuer.example.com"))),
        "ns-cert-type-client": (X.OID["ns-cert-type"], False, der.named_bits([0])),
        "ns-cert-type-critical": (X.OID["ns-cert-type"], True, der.named_bits([1])),
        "sct-critical": (X.OID["sct"], True, der.octet(b"\x00\x00")),
        "cp-critical-unknown-policy": (X.OID["cp"], True, X.policies("1.3.6.1.4.1.55555.7")),
        "cp-critical-any": (X.OID["cp"], True, X.policies("2.5.29.32.0")),
        "subject-dir-attrs-critical": ("2.5.29.9", True, der.seq(der.seq(der.oid("2.5.4.3"), der.set_(der.utf8("x"))))),
        "ski-critical": (X.OID["ski"], True, X.auto_ski),
        "aki-critical": (X.OID["aki"], True, X.auto_aki),
        "aki-issuer-serial": (X.OID["aki"], False, der.seq(der.ctx(1, X.gn_dirname(X.name(("cn", "Nobody")))),
                                                          der.tlv(0x82, b"\x01"))),
        "freshest-crl-critical": ("2.5.29.46", True, X.cdp("http://crl.example.com/delta.crl")),
    }[v]
    c.remove_ext(oid)
    if c.exts is None:
        c.exts = []
    c.exts.append(X.Ext(oid, crit, val))
    if v.startswith(("policy-", "inhibit-any", "cp-critical")):
        case.policy_check = True
    case.tag("ext.add:%s@%s" % (v, t))


@mutation("ext", 2)
def m_ext_field(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    v = rng.choice(["v1-no-exts", "v1-with-exts", "v2-with-exts", "v4", "explicit-v1", "empty-exts", "uids-v3",
                    "uids-v1", "version-nonminimal", "exts-explicit-empty-tag", "negative-version"])
    if v == "v1-no-exts":
        c.version, c.exts = None, None
    elif v == "v1-with-exts":
        c.version = None
    elif v == "v2-with-exts":
        c.version = 1
    elif v == "v4":
        c.version = 3
    elif v == "explicit-v1":
        c.version = 0
        c.exts = None
    elif v == "empty-exts":
        c.exts = []
    elif v == "uids-v3":
        c.issuer_uid, c.subject_uid = b"\x01\x02", b"\x03\x04"
    elif v == "uids-v1":
        c.version, c.exts = None, None
        c.issuer_uid = b"\x01\x02"
    elif v == "version-nonminimal":
        c.version_raw = der.ctx(0, der.integer_raw(b"\x00\x02"))
    elif v == "exts-explicit-empty-tag":
        c.exts_field_raw = der.ctx(3, b"")
    else:
        c.version = -1
    case.tag("ext.field:%s@%s" % (v, t))


# ======================================================================== basic constraints


@mutation("bc", 4)
def m_bc(case, rng):
    v = rng.choice(["int-ca-false", "int-remove", "int-noncritical", "leaf-ca-true", "leaf-ca-true-pathlen0",
                    "leaf-pathlen", "leaf-explicit-false", "root-pathlen0", "int-pathlen0-deep", "int-pathlen-neg",
                    "root-remove", "root-ca-false", "leaf-remove", "int-pathlen-huge", "root-noncritical",
                    "int-ca-false-pathlen", "int-explicit-false-only"])
    t = v.split("-")[0]
    if t == "int" and "int" not in case.certs:
        return None
    c = case.certs[t]
    if v == "int-ca-false":
        c.set_ext("bc", True, X.bc(False))
    elif v == "int-remove" or v == "root-remove" or v == "leaf-remove":
        c.remove_ext("bc")
    elif v in ("int-noncritical", "root-noncritical"):
        c.set_ext("bc", False, ext_value(c, c.ext("bc")) if c.ext("bc") else X.bc(True))
    elif v == "leaf-ca-true":
        c.set_ext("bc", True, X.bc(True))
    elif v == "leaf-ca-true-pathlen0":
        c.set_ext("bc", True, X.bc(True, 0))
        c.set_ext("ku", True, X.ku("digitalSignature", "keyCertSign"))
    elif v == "leaf-pathlen":
        c.set_ext("bc", True, X.bc(False, 0))
    elif v == "leaf-explicit-false":
        c.set_ext("bc", True, X.bc(False, explicit_false=True))
    elif v == "root-pathlen0":
        if not case.intermediates():
            return None
        c.set_ext("bc", True, X.bc(True, 0))
    elif v == "int-pathlen0-deep":
        if "int2" not in case.certs:
            return None
        c.set_ext("bc", True, X.bc(True, 0))
    elif v == "int-pathlen-neg":
        c.set_ext("bc", True, X.bc(True, -1))
    elif v == "root-ca-false":
        c.set_ext("bc", True, X.bc(False))
    elif v == "int-pathlen-huge":
        c.set_ext("bc", True, der.seq(der.boolean(True), der.integer(2**70)))
    elif v == "int-ca-false-pathlen":
        c.set_ext("bc", True, X.bc(False, 5))
    elif v == "int-explicit-false-only":
        c.set_ext("bc", True, der.seq(der.boolean(False)))
    case.tag("bc.%s@%s" % (v, t))


# ======================================================================== key usage / EKU


@mutation("ku", 3)
def m_ku(case, rng):
    v = rng.choice(["int-no-certsign", "int-remove", "int-noncritical", "root-no-certsign", "root-remove",
                    "leaf-certsign-only", "leaf-keyagreement-only", "leaf-keyencipherment-only", "leaf-empty",
                    "leaf-nonminimal", "leaf-unused-bits-8", "leaf-remove", "leaf-decipher-only",
                    "leaf-dataencipherment", "int-only-crlsign", "leaf-noncritical", "leaf-all"])
    t = v.split("-")[0]
    if t == "int" and "int" not in case.certs:
        return None
    c = case.certs[t]
    val = {
        "int-no-certsign": X.ku("digitalSignature", "cRLSign"),
        "root-no-certsign": X.ku("digitalSignature", "cRLSign"),
        "int-only-crlsign": X.ku("cRLSign"),
        "leaf-certsign-only": X.ku("keyCertSign"),
        "leaf-keyagreement-only": X.ku("keyAgreement"),
        "leaf-keyencipherment-only": X.ku("keyEncipherment"),
        "leaf-empty": der.bitstring(b""),
        "leaf-nonminimal": der.bitstring(b"\x80\x00", 7),
        "leaf-unused-bits-8": der.bitstring(b"\x80", 8),
        "leaf-decipher-only": X.ku("decipherOnly"),
        "leaf-dataencipherment": X.ku("dataEncipherment"),
        "leaf-all": X.ku(*X.KU_BITS.keys()),
    }.get(v)
    if v.endswith("-remove"):
        c.remove_ext("ku")
    elif v.endswith("-noncritical"):
        e = c.ext("ku")
        if e is None:
            return None
        e.critical = False
    else:
        c.set_ext("ku", True, val)
    case.tag("ku.%s@%s" % (v, t))


@mutation("eku", 3)
def m_eku(case, rng):
    v = rng.choice(["leaf-client-only", "leaf-any-only", "leaf-remove", "leaf-any-plus-server", "leaf-codesign",
                    "leaf-empty", "leaf-ns-sgc", "leaf-ms-sgc", "leaf-critical", "leaf-dup-server", "leaf-ocsp-signing",
                    "int-client-only", "int-any", "int-remove", "int-codesign", "root-client-only", "root-any",
                    "leaf-server-plus-ocsp", "leaf-unknown-only"])
    t = v.split("-")[0]
    if t == "int" and "int" not in case.certs:
        return None
    c = case.certs[t]
    val = {
        "leaf-client-only": X.eku("clientAuth"),
        "leaf-any-only": X.eku("any"),
        "leaf-any-plus-server": X.eku("any", "serverAuth"),
        "leaf-codesign": X.eku("codeSigning"),
        "leaf-empty": der.seq(),
        "leaf-ns-sgc": X.eku("nsSGC"),
        "leaf-ms-sgc": X.eku("msSGC"),
        "leaf-dup-server": X.eku("serverAuth", "serverAuth"),
        "leaf-ocsp-signing": X.eku("ocspSigning"),
        "leaf-server-plus-ocsp": X.eku("serverAuth", "ocspSigning"),
        "leaf-unknown-only": X.eku("1.3.6.1.4.1.55555.3"),
        "int-client-only": X.eku("clientAuth"),
        "int-any": X.eku("any"),
        "int-codesign": X.eku("codeSigning"),
        "root-client-only": X.eku("clientAuth"),
        "root-any": X.eku("any"),
    }.get(v)
    if v.endswith("-remove"):
        c.remove_ext("eku")
    elif v == "leaf-critical":
        c.set_ext("eku", True, X.eku("serverAuth"))
    else:
        c.set_ext("eku", False, val)
    case.tag("eku.%s@%s" % (v, t))


# ======================================================================== names, SAN, hosts

HOST_PAIRS = [
    # (SAN dNSName entries or None to keep, host, variant name)
    (["*.example.com"], "www.example.com", "wild-ok"),
    (["*.example.com"], "a.b.example.com", "wild-multilabel"),
    (["*.example.com"], "example.com", "wild-bare"),
    (["*"], "www.example.com", "wild-star"),
    (["*.com"], "example.com", "wild-tld"),
    (["w*.example.com"], "www.example.com", "wild-partial-prefix"),
    (["*w.example.com"], "www.example.com", "wild-partial-suffix"),
    (["ww*w.example.com"], "www.example.com", "wild-partial-mid"),
    (["www.*.com"], "www.example.com", "wild-middle"),
    (["*.*.example.com"], "a.b.example.com", "wild-double"),
    (["**.example.com"], "www.example.com", "wild-doublestar"),
    (["*.xn--bcher-kva.example"], "www.xn--bcher-kva.example", "wild-idna-ok"),
    (["xn--*.example.com"], "xn--bcher-kva.example.com", "wild-in-alabel"),
    (["*.co.uk"], "example.co.uk", "wild-public-suffix"),
    (["*.wild.example.com"], "wild.example.com", "wild-seed-bare"),
    (["www.example.com."], "www.example.com", "san-trailing-dot"),
    (["www.example.com"], "www.example.com.", "host-trailing-dot"),
    (["WWW.EXAMPLE.COM"], "www.example.com", "san-upper"),
    (["www.example.com"], "WWW.Example.COM", "host-upper"),
    ([b"www.example.com\x00.evil.com"], "www.example.com", "san-nul"),
    ([b"www.example.com\x00"], "www.example.com", "san-nul-end"),
    (["www.example.com "], "www.example.com", "san-space"),
    ([""], "www.example.com", "san-empty-dns"),
    ([" "], "www.example.com", "san-space-only"),
    (["www..example.com"], "www..example.com", "double-dot"),
    (["-bad-.example.com"], "-bad-.example.com", "hyphen-label"),
    (["under_score.example.com"], "under_score.example.com", "underscore"),
    (["xn--bcher-kva.example"], "xn--bcher-kva.example", "idna-alabel"),
    (["xn--bcher-kva.example"], "bücher.example", "idna-ulabel-host"),
    (["bücher.example".encode("utf-8")], "bücher.example", "idna-utf8-san"),
    (["bücher.example".encode("utf-8")], "xn--bcher-kva.example", "idna-utf8-san-alabel-host"),
    (["xn--zz.example"], "xn--zz.example", "idna-bad-punycode"),
    (["XN--BCHER-KVA.example"], "xn--bcher-kva.example", "idna-upper-prefix"),
    (["www.example.com"], "www.example.com.evil.com", "suffix-attack"),
    (["example.com"], "evil-example.com", "prefix-attack"),
    (["192.0.2.10"], "192.0.2.10", "ip-as-dns"),
    (["192.0.2.10"], "192.0.2.010", "ip-as-dns-leading-zero"),
    (["*.0.2.10"], "192.0.2.10", "wild-ip"),
    (["*.2.10"], "192.0.2.10", "wild-ip2"),
    (["2001:db8::10"], "2001:db8::10", "ipv6-as-dns"),
    (["localhost"], "localhost", "localhost"),
    (["a" * 64 + ".example.com"], "a" * 64 + ".example.com", "label-64"),
    (["www.example.com/evil"], "www.example.com", "san-slash"),
    (["www.example.com"], "www.example.com:443", "host-port"),
]

IP_HOSTS = [
    "192.0.2.010", "0300.0.2.10", "0xc0.0.2.10", "0xc000020a", "3221226250", "192.0.2.10.", "192.0.2.10 ",
    "::ffff:192.0.2.10", "::ffff:c000:20a", "[2001:db8::10]", "2001:db8:0:0:0:0:0:10", "2001:DB8::10", "192.0.2.1",
    "2001:db8::10%eth0", "192.0.522", "192.0.2", "192.000.002.010", "1.2.3.4", "::192.0.2.10", "2001:db8::0010",
    "192.0.2.10/32", "2001:0db8:0000:0000:0000:0000:0000:0010", "192.0.2.266", "198.51.100.10", "2001:db8::11",
    "192.0.2.10", "2001:db8::10", "0.0.0.0", "::", "::1",
]


@mutation("host", 6)
def m_host_names(case, rng):
    sans, host, v = rng.choice(HOST_PAIRS)
    leaf = case.leaf
    keep_ips = rng.random() < 0.5
    gns = [X.gn_dns(s) for s in sans] + ([X.gn_ip(i) for i in pki.LEAF_IPS] if keep_ips else [])
    leaf.set_ext("san", False, X.san(*gns))
    case.host = host
    case.tag("host.dns:%s@leaf" % v)


@mutation("host", 5)
def m_host_ip(case, rng):
    host = rng.choice(IP_HOSTS)
    v = rng.choice(["ip-san", "ip-san", "dns-san-literal", "ip-san-v4mapped", "ip-san-5-bytes", "ip-san-3-bytes",
                    "ip-san-17-bytes", "ip-san-with-mask", "both"])
    leaf = case.leaf
    if v == "ip-san":
        gns = [X.gn_ip(i) for i in pki.LEAF_IPS]
    elif v == "dns-san-literal":
        gns = [X.gn_dns(i) for i in pki.LEAF_IPS]
    elif v == "ip-san-v4mapped":
        gns = [X.gn_ip("::ffff:192.0.2.10")]
    elif v == "ip-san-5-bytes":
        gns = [X.gn_ip(bytes([192, 0, 2, 10, 0]))]
    elif v == "ip-san-3-bytes":
        gns = [X.gn_ip(bytes([192, 0, 2]))]
    elif v == "ip-san-17-bytes":
        gns = [X.gn_ip(bytes(16) + b"\x01")]
    elif v == "ip-san-with-mask":
        gns = [X.gn_ip(bytes([192, 0, 2, 10, 255, 255, 255, 255]))]
    else:
        gns = [X.gn_ip(i) for i in pki.LEAF_IPS] + [X.gn_dns(i) for i in pki.LEAF_IPS]
    gns.append(X.gn_dns("www.example.com"))
    leaf.set_ext("san", False, X.san(*gns))
    case.host = host
    case.tag("host.ip:%s/%s@leaf" % (host.strip() + ("<sp>" if host.endswith(" ") else ""), v))


@mutation("san", 4)
def m_san(case, rng):
    leaf = case.leaf
    v = rng.choice(["remove-cn-host", "no-dns-cn-host", "email-only-cn-host", "uri-only-cn-host", "dirname-only",
                    "empty-seq", "empty-subject-noncritical", "empty-subject-critical", "other-name-only",
                    "rid-only", "cn-mismatch", "two-san-exts-second-host", "x400-only", "unknown-tag",
                    "cn-host-email-in-subject"])
    if v == "remove-cn-host":
        leaf.remove_ext("san")
    elif v == "no-dns-cn-host":
        leaf.set_ext("san", False, X.san(X.gn_ip("192.0.2.10")))
    elif v == "email-only-cn-host":
        leaf.set_ext("san", False, X.san(X.gn_email("www.example.com")))
    elif v == "uri-only-cn-host":
        leaf.set_ext("san", False, X.san(X.gn_uri("https://www.example.com/")))
    elif v == "dirname-only":
        leaf.set_ext("san", False, X.san(X.gn_dirname(X.name(("cn", "www.example.com")))))
    elif v == "empty-seq":
        leaf.set_ext("san", False, der.seq())
    elif v == "empty-subject-noncritical":
        leaf.subject = der.seq()
    elif v == "empty-subject-critical":
        leaf.subject = der.seq()
        if leaf.ext("san") is None:
            leaf.set_ext("san", True, X.san(X.gn_dns("www.example.com")))
        leaf.ext("san").critical = True
    elif v == "other-name-only":
        leaf.set_ext("san", False, X.san(X.gn_other("1.3.6.1.5.5.7.8.7", der.ia5("_https.www.example.com"))))
    elif v == "rid-only":
        leaf.set_ext("san", False, X.san(X.gn_rid("1.2.3.4")))
    elif v == "cn-mismatch":
        leaf.subject = X.name(("cn", "other.example.net"))
    elif v == "two-san-exts-second-host":
        leaf.set_ext("san", False, X.san(X.gn_dns("other.example.net")))
        (leaf.exts or []).append(X.Ext(X.OID["san"], False, X.san(X.gn_dns("www.example.com"))))
    elif v == "x400-only":
        leaf.set_ext("san", False, X.san(der.ctx(3, der.seq())))
    elif v == "unknown-tag":
        leaf.set_ext("san", False, X.san(der.tlv(0x89, b"www.example.com")))
    elif v == "cn-host-email-in-subject":
        leaf.set_ext("san", False, X.san(X.gn_email("admin@example.com")))
        leaf.subject = X.name(("email", "admin@example.com", "ia5"), ("cn", "www.example.com"))
    case.tag("san.%s@leaf" % v)


@mutation("name", 3)
def m_names(case, rng):
    t = pick_target(case, rng, ("leaf", "int"))
    c = case.certs[t]
    parent = c.issuer_cert
    v = rng.choice(["issuer-case", "issuer-string-type", "issuer-whitespace", "issuer-mismatch", "issuer-extra-rdn",
                    "issuer-reordered", "issuer-empty", "subject-empty-ca", "subject-multi-cn", "subject-bad-utf8",
                    "subject-bmp", "subject-t61", "multi-value-rdn", "issuer-same-as-subject"])
    if v.startswith("subject-empty-ca"):
        if t == "leaf":
            return None
        c.subject = der.seq()
    elif v == "subject-multi-cn":
        c.subject = der.seq(*der.children(c.subject), der.set_(der.seq(der.oid(X.OID["cn"]), der.utf8("evil.example.net"))))
    elif v == "subject-bad-utf8":
        c.subject = der.seq(*der.children(c.subject)[:-1], der.set_(der.seq(der.oid(X.OID["cn"]), der.tlv(0x0C, b"\xff\xfe bad"))))
    elif v == "subject-bmp":
        c.subject = der.seq(*der.children(c.subject)[:-1], der.set_(der.seq(der.oid(X.OID["cn"]), X.string("www.example.com", "bmp"))))
    elif v == "subject-t61":
        c.subject = der.seq(*der.children(c.subject)[:-1], der.set_(der.seq(der.oid(X.OID["cn"]), X.string("www.example.com", "t61"))))
    elif v == "multi-value-rdn":
        rdns = der.children(c.subject)
        c.subject = der.seq(der.set_(*[der.children(r)[0] for r in rdns]))
    else:
        rdns = der.children(parent.subject)
        if not rdns:
            return None
        cn_attr = der.children(rdns[-1])[0]
        cn_value = der.children(cn_attr)[1]
        text = cn_value[2:].decode("utf-8", "replace")
        if v == "issuer-case":
            new_cn = der.seq(der.oid(X.OID["cn"]), der.utf8(text.upper()))
        elif v == "issuer-string-type":
            new_cn = der.seq(der.oid(X.OID["cn"]), der.printable(text))
        elif v == "issuer-whitespace":
            new_cn = der.seq(der.oid(X.OID["cn"]), der.utf8("  " + text.replace(" ", "   ") + " "))
        elif v == "issuer-mismatch":
            new_cn = der.seq(der.oid(X.OID["cn"]), der.utf8(text + " X"))
        else:
            new_cn = None
        if new_cn is not None:
            c.issuer = der.seq(*rdns[:-1], der.set_(new_cn))
        elif v == "issuer-extra-rdn":
            c.issuer = der.seq(*rdns, der.set_(der.seq(der.oid(X.OID["ou"]), der.utf8("extra"))))
        elif v == "issuer-reordered":
            c.issuer = der.seq(*reversed(rdns))
        elif v == "issuer-empty":
            c.issuer = der.seq()
        elif v == "issuer-same-as-subject":
            c.issuer = c.subject
    case.tag("name.%s@%s" % (v, t))


# ======================================================================== validity


@mutation("validity", 4)
def m_validity(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    at = case.at
    v = rng.choice(["expired", "not-yet-valid", "notafter-equals-at", "notbefore-equals-at", "inverted",
                    "generalized-pre2050", "utc-no-seconds", "utc-offset", "gen-fraction", "utc-1950",
                    "gen-9999", "beyond-issuer", "before-issuer", "leaf-826-days", "leaf-825-days", "leaf-399-days",
                    "utc-lowercase-z", "gen-no-z", "utc-2049", "gen-2050", "notbefore-2019-06-30-long",
                    "expired-by-1s-utc-noseconds"])
    if not (isinstance(c.not_before, dt.datetime) and isinstance(c.not_after, dt.datetime)):
        return None  # an earlier mutation already wrote raw encodings
    if v == "expired":
        c.not_after = at - SEC
    elif v == "not-yet-valid":
        c.not_before = at + SEC
    elif v == "notafter-equals-at":
        c.not_after = at
    elif v == "notbefore-equals-at":
        c.not_before = at
    elif v == "inverted":
        c.not_before, c.not_after = at + DAY, at - DAY
    elif v == "generalized-pre2050":
        c.not_before, c.not_after = der.gentime(c.not_before), der.gentime(c.not_after)
    elif v == "utc-no-seconds":
        c.not_before = der.utctime(c.not_before, "%y%m%d%H%MZ")
    elif v == "utc-offset":
        c.not_before = der.utctime(c.not_before, "%y%m%d%H%M%S+0100")
    elif v == "gen-fraction":
        c.not_before = der.gentime(c.not_before, "%Y%m%d%H%M%S.5Z")
    elif v == "utc-1950":
        c.not_after = der.tlv(0x17, b"500101000000Z")
    elif v == "gen-9999":
        c.not_after = der.gentime(dt.datetime(9999, 12, 31, 23, 59, 59))
    elif v == "beyond-issuer":
        c.not_after = c.issuer_cert.not_after + 400 * DAY if isinstance(c.issuer_cert.not_after, dt.datetime) else c.not_after
    elif v == "before-issuer":
        if isinstance(c.issuer_cert.not_before, dt.datetime):
            c.not_before = c.issuer_cert.not_before - 400 * DAY
    elif v in ("leaf-826-days", "leaf-825-days", "leaf-399-days"):
        if t != "leaf":
            return None
        days = int(v.split("-")[1])
        c.not_before = at - 10 * DAY
        c.not_after = c.not_before + days * DAY
    elif v == "utc-lowercase-z":
        c.not_before = der.utctime(c.not_before, "%y%m%d%H%M%Sz")
    elif v == "gen-no-z":
        c.not_before = der.gentime(c.not_before, "%Y%m%d%H%M%S")
    elif v == "utc-2049":
        c.not_after = dt.datetime(2049, 12, 31, 23, 59, 59, tzinfo=UTC)
    elif v == "gen-2050":
        c.not_after = dt.datetime(2050, 1, 1, tzinfo=UTC)
    elif v == "notbefore-2019-06-30-long":
        if t != "leaf":
            return None
        c.not_before = dt.datetime(2019, 6, 30, tzinfo=UTC)
        c.not_after = dt.datetime(2026, 1, 1, tzinfo=UTC)
    elif v == "expired-by-1s-utc-noseconds":
        c.not_after = der.utctime(at - 60 * SEC, "%y%m%d%H%MZ")
    case.tag("validity.%s@%s" % (v, t))


# ======================================================================== serials


@mutation("serial", 2)
def m_serial(case, rng):
    t = pick_target(case, rng)
    c = case.certs[t]
    v = rng.choice(["zero", "negative", "20-bytes", "21-bytes", "leading-zero", "leading-ff", "empty", "40-bytes",
                    "same-as-issuer", "nonminimal-length", "one"])
    if v == "zero":
        c.serial = der.integer(0)
    elif v == "negative":
        c.serial = der.integer(-12345)
    elif v == "20-bytes":
        c.serial = der.integer_raw(b"\x7f" + b"\x11" * 19)
    elif v == "21-bytes":
        c.serial = der.integer_raw(b"\x00" + b"\x81" * 20)
    elif v == "leading-zero":
        c.serial = der.integer_raw(b"\x00\x01\x02")
    elif v == "leading-ff":
        c.serial = der.integer_raw(b"\xff\x81\x02")
    elif v == "empty":
        c.serial = der.integer_raw(b"")
    elif v == "40-bytes":
        c.serial = der.integer_raw(b"\x12" * 40)
    elif v == "same-as-issuer":
        c.serial = c.issuer_cert.serial
    elif v == "nonminimal-length":
        c.serial = nonminimal(c.serial)
    else:
        c.serial = der.integer(1)
    case.tag("serial.%s@%s" % (v, t))


# ======================================================================== name constraints


@mutation("nc", 6)
def m_name_constraints(case, rng):
    t = pick_target(case, rng, ("int", "root"))
    c = case.certs[t]
    v = rng.choice(["permit-dns-other", "permit-dns-ok", "permit-dns-leading-dot", "exclude-dns", "exclude-dns-www",
                    "exclude-dns-wild", "exclude-ip-v4", "exclude-ip-v6", "permit-ip-v6-only", "permit-ip-v4-only",
                    "permit-ip-other", "permit-ip-v4mapped", "exclude-ip-v4mapped", "ip-bad-mask", "ip-no-mask",
                    "permit-dirname-other", "exclude-dirname-leaf", "permit-email", "permit-uri", "permit-othername",
                    "noncritical", "empty", "min-max", "permit-dns-upper", "permit-dns-trailing-dot",
                    "permit-dns-idna", "exclude-dns-upper", "exclude-ip-v4-mapped-host", "exclude-ip-all-v4",
                    "permit-dns-and-ip-v4", "exclude-dns-empty", "permit-dns-empty", "permit-dns-star",
                    "permit-dns-sub-only", "exclude-ip-zero-mask", "permit-ip-zero-mask-v6"])
    crit = True
    P, E = [], []
    st = X.subtree
    if v == "permit-dns-other":
        P = [st(X.gn_dns("other.com"))]
    elif v == "permit-dns-ok":
        P = [st(X.gn_dns("example.com"))]
    elif v == "permit-dns-leading-dot":
        P = [st(X.gn_dns(".example.com"))]
    elif v == "exclude-dns":
        E = [st(X.gn_dns("example.com"))]
    elif v == "exclude-dns-www":
        E = [st(X.gn_dns("www.example.com"))]
    elif v == "exclude-dns-wild":
        E = [st(X.gn_dns("wild.example.com"))]
    elif v == "exclude-ip-v4":
        E = [st(X.ip_net("192.0.2.0/24"))]
    elif v == "exclude-ip-v6":
        E = [st(X.ip_net("2001:db8::/32"))]
    elif v == "permit-ip-v6-only":
        P = [st(X.ip_net("2001:db8::/32")), st(X.gn_dns("example.com"))]
    elif v == "permit-ip-v4-only":
        P = [st(X.ip_net("192.0.2.0/24")), st(X.gn_dns("example.com"))]
    elif v == "permit-ip-other":
        P = [st(X.ip_net("198.51.100.0/24")), st(X.gn_dns("example.com"))]
    elif v == "permit-ip-v4mapped":
        P = [st(X.gn_ip(b"\x00" * 10 + b"\xff\xff" + bytes([192, 0, 2, 0]) + b"\xff" * 15 + b"\x00")),
             st(X.ip_net("2001:db8::/32")), st(X.gn_dns("example.com"))]
    elif v == "exclude-ip-v4mapped":
        E = [st(X.gn_ip(b"\x00" * 10 + b"\xff\xff" + bytes([192, 0, 2, 0]) + b"\xff" * 15 + b"\x00"))]
    elif v == "ip-bad-mask":
        E = [st(X.gn_ip(bytes([192, 0, 2, 0, 255, 0, 255, 0])))]
    elif v == "ip-no-mask":
        E = [st(X.gn_ip(bytes([192, 0, 2, 10])))]
    elif v == "permit-dirname-other":
        P = [st(X.gn_dirname(X.name(("o", "Other Org"))))]
    elif v == "exclude-dirname-leaf":
        E = [st(X.gn_dirname(case.leaf.subject))]
    elif v == "permit-email":
        P = [st(X.gn_email("example.org"))]
    elif v == "permit-uri":
        P = [st(X.gn_uri(".example.org"))]
    elif v == "permit-othername":
        P = [st(X.gn_other("1.3.6.1.5.5.7.8.7", der.ia5("_x.example.org")))]
    elif v == "noncritical":
        crit = False
        P = [st(X.gn_dns("other.com"))]
    elif v == "empty":
        pass
    elif v == "min-max":
        P = [st(X.gn_dns("other.com"), minimum=1, maximum=3), st(X.gn_dns("example.com"), maximum=1)]
    elif v == "permit-dns-upper":
        P = [st(X.gn_dns("EXAMPLE.COM"))]
    elif v == "permit-dns-trailing-dot":
        P = [st(X.gn_dns("example.com."))]
    elif v == "permit-dns-idna":
        P = [st(X.gn_dns("xn--bcher-kva.example"))]
    elif v == "exclude-dns-upper":
        E = [st(X.gn_dns("EXAMPLE.COM"))]
    elif v == "exclude-ip-v4-mapped-host":
        E = [st(X.ip_net("192.0.2.0/24"))]
        case.host = "::ffff:192.0.2.10"
        case.leaf.set_ext("san", False, X.san(X.gn_ip("::ffff:192.0.2.10"), X.gn_dns("www.example.com")))
    elif v == "exclude-ip-all-v4":
        E = [st(X.ip_net("0.0.0.0/0"))]
    elif v == "permit-dns-and-ip-v4":
        P = [st(X.gn_dns("example.com")), st(X.ip_net("192.0.2.0/24")), st(X.ip_net("2001:db8::/32"))]
    elif v == "exclude-dns-empty":
        E = [st(X.gn_dns(""))]
    elif v == "permit-dns-empty":
        P = [st(X.gn_dns(""))]
    elif v == "permit-dns-star":
        P = [st(X.gn_dns("*.example.com"))]
    elif v == "permit-dns-sub-only":
        P = [st(X.gn_dns("sub.example.com"))]
    elif v == "exclude-ip-zero-mask":
        E = [st(X.gn_ip(bytes([192, 0, 2, 0, 0, 0, 0, 0])))]
    elif v == "permit-ip-zero-mask-v6":
        P = [st(X.gn_ip(bytes(32))), st(X.gn_dns("example.com"))]
    if rng.random() < 0.3:
        # aim the host at the IP SAN so a wrong IP decision shows
        if case.host == pki.HOST:
            case.host = rng.choice(pki.LEAF_IPS)
            v += "+ip-host"
    c.set_ext("nc", crit, X.name_constraints(P, E))
    case.tag("nc.%s@%s" % (v, t))


@mutation("nc", 1)
def m_nc_on_leaf(case, rng):
    case.leaf.set_ext("nc", True, X.name_constraints([X.subtree(X.gn_dns("other.com"))]))
    case.tag("nc.on-leaf@leaf")


# ======================================================================== certificate policies


@mutation("policy", 3)
def m_policy(case, rng):
    """RFC 5280 section 6.1 policy processing: certkit recognises the policy extensions (so they may be critical);
    these cases check that it also applies them. OpenSSL runs with -policy_check for them."""
    ints = case.intermediates()
    if not ints:
        return None
    ca = rng.choice(ints)
    leaf = case.leaf
    v = rng.choice(["require-explicit-leaf-no-policy", "require-explicit-leaf-other-policy", "require-explicit-ok",
                    "require-explicit-skip1-no-policy", "inhibit-any-leaf-any", "inhibit-any-skip-leaf-any",
                    "mapping-from-any", "mapping-to-any", "inhibit-mapping-then-mapped", "ca-policy-other-leaf-br",
                    "require-explicit-leaf-any", "cp-dup-policy", "cp-empty-seq"])
    PC = X.OID["pc"]
    if v == "require-explicit-leaf-no-policy":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
        leaf.remove_ext("cp")
    elif v == "require-explicit-leaf-other-policy":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
        leaf.set_ext("cp", False, X.policies("1.3.6.1.4.1.55555.7"))
    elif v == "require-explicit-ok":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
    elif v == "require-explicit-skip1-no-policy":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x01")))
        leaf.remove_ext("cp")
    elif v in ("inhibit-any-leaf-any", "inhibit-any-skip-leaf-any"):
        ca.set_ext("inhibit", True, der.integer(0 if v == "inhibit-any-leaf-any" else 5))
        ca.set_ext("cp", False, X.policies("2.5.29.32.0"))
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
        leaf.set_ext("cp", False, X.policies("2.5.29.32.0"))
    elif v == "mapping-from-any":
        ca.set_ext("pm", True, der.seq(der.seq(der.oid("2.5.29.32.0"), der.oid("2.23.140.1.2.1"))))
    elif v == "mapping-to-any":
        ca.set_ext("pm", True, der.seq(der.seq(der.oid("2.23.140.1.2.1"), der.oid("2.5.29.32.0"))))
    elif v == "inhibit-mapping-then-mapped":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00"), der.tlv(0x81, b"\x00")))
        ca.set_ext("pm", True, der.seq(der.seq(der.oid("2.23.140.1.2.1"), der.oid("1.3.6.1.4.1.55555.8"))))
        leaf.set_ext("cp", False, X.policies("1.3.6.1.4.1.55555.8"))
    elif v == "ca-policy-other-leaf-br":
        ca.set_ext("cp", True, X.policies("1.3.6.1.4.1.55555.9"))
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
    elif v == "require-explicit-leaf-any":
        ca.set_ext("pc", True, der.seq(der.tlv(0x80, b"\x00")))
        leaf.set_ext("cp", False, X.policies("2.5.29.32.0"))
    elif v == "cp-dup-policy":
        leaf.set_ext("cp", False, X.policies("2.23.140.1.2.1", "2.23.140.1.2.1"))
    elif v == "cp-empty-seq":
        leaf.set_ext("cp", False, der.seq())
    case.policy_check = True
    case.tag("policy.%s@%s" % (v, ca.label))


# ======================================================================== chains and anchors


def _extra_int(case):
    """A second intermediate under `int` (makes a 4-certificate chain from a 3-certificate one)."""
    if "int" not in case.certs or "int2" in case.certs:
        return False
    parent = case.certs["int"]
    c = X.Cert("int2", keys.get("p256-int2"), X.name(("c", "XX", "printable"), ("o", "certkit differential"),
                                                     ("cn", "Differential Extra Intermediate")), parent)
    c.serial = der.integer(0x0333)
    c.not_before, c.not_after = parent.not_before, parent.not_after
    c.exts = [X.Ext(X.OID["bc"], True, X.bc(True)), X.Ext(X.OID["ku"], True, X.ku("digitalSignature", "keyCertSign", "cRLSign")),
              X.Ext(X.OID["ski"], False, X.auto_ski), X.Ext(X.OID["aki"], False, X.auto_aki)]
    case.add(c, case.order.index("leaf"))
    case.leaf.issuer_cert = c
    return True


@mutation("chain", 4)
def m_chain(case, rng):
    v = rng.choice(["no-int", "reversed", "with-root", "dup-leaf", "distractor", "anchor-is-int", "anchor-is-leaf",
                    "anchor-root-and-int", "extra-int-pathlen0", "self-issued-int", "anchor-v1-root",
                    "int-self-signed-not-anchor", "leaf-only-anchor-is-int", "extra-int", "anchor-expired-root",
                    "cross-distractor-same-name", "leaf-is-ca-issuing", "anchor-int-no-bc"])
    ints = case.intermediates()
    if v == "no-int":
        if not ints:
            return None
        case.presented = ["leaf"]
    elif v == "reversed":
        if not ints:
            return None
        case.presented = ["leaf"] + [c.label for c in ints]
    elif v == "with-root":
        case.presented = ["leaf"] + [c.label for c in reversed(ints)] + ["root"]
    elif v == "dup-leaf":
        case.presented = ["leaf", "leaf"] + [c.label for c in reversed(ints)]
    elif v == "distractor":
        d = X.Cert("distractor", keys.get("rsa2048-other"), X.name(("cn", "Distractor")))
        d.not_before, d.not_after = case.root.not_before, case.root.not_after
        d.exts = [X.Ext(X.OID["bc"], True, X.bc(True))]
        case.extra.append(d)
    elif v in ("anchor-is-int", "leaf-only-anchor-is-int"):
        if not ints:
            return None
        case.anchors = [ints[-1].label]
        case.presented = ["leaf"] + ([c.label for c in reversed(ints[:-1])] if v == "anchor-is-int" else [])
        case.tag("anchor@%s" % ints[-1].label)
    elif v == "anchor-int-no-bc":
        if not ints:
            return None
        ints[-1].remove_ext("bc")
        case.anchors = [ints[-1].label]
        case.tag("anchor@%s" % ints[-1].label)
        case.presented = ["leaf"] + [c.label for c in reversed(ints[:-1])]
    elif v == "anchor-is-leaf":
        case.anchors = ["leaf"]
        case.presented = ["leaf"]
    elif v == "anchor-root-and-int":
        if not ints:
            return None
        case.anchors = ["root", ints[-1].label]
        case.tag("anchor@%s" % ints[-1].label)
    elif v == "extra-int-pathlen0":
        if not _extra_int(case):
            return None
    elif v == "extra-int":
        if not _extra_int(case):
            return None
        case.certs["int"].set_ext("bc", True, X.bc(True))
    elif v == "self-issued-int":
        if not ints:
            return None
        ints[0].subject = case.root.subject
        for c in case.certs.values():
            if c.issuer_cert is ints[0] and c is not ints[0]:
                c.issuer = None
    elif v == "anchor-v1-root":
        r = case.root
        r.version, r.exts = None, None
    elif v == "int-self-signed-not-anchor":
        if not ints:
            return None
        i = ints[-1]
        i.issuer_cert = i
        case.presented = ["leaf"] + [c.label for c in reversed(ints)]
    elif v == "anchor-expired-root":
        r = case.root
        r.not_after = case.at - DAY
    elif v == "cross-distractor-same-name":
        d = X.Cert("cross", keys.get("rsa2048-other"), case.root.subject)
        d.not_before, d.not_after = case.root.not_before, case.root.not_after
        d.exts = [X.Ext(X.OID["bc"], True, X.bc(True)), X.Ext(X.OID["ku"], True, X.ku("keyCertSign"))]
        case.extra.append(d)
    elif v == "leaf-is-ca-issuing":
        leaf = case.leaf
        sub = X.Cert("leaf", keys.get("p256-other"), X.name(("cn", "www.example.com")), leaf)
        sub.not_before, sub.not_after = leaf.not_before, leaf.not_after
        sub.serial = der.integer(0x777)
        sub.exts = [X.Ext(e.oid, e.critical, e.value) for e in (leaf.exts or []) if e.oid != X.OID["ku"]]
        sub.exts.append(X.Ext(X.OID["ku"], True, X.ku("digitalSignature")))
        leaf.label = "leaf-as-ca"
        case.certs["leaf-as-ca"] = leaf
        case.order[case.order.index("leaf")] = "leaf-as-ca"
        case.add(sub)
        case.tag("chain.%s" % v)
        return True
    case.tag("chain.%s" % v)


# ======================================================================== CRLs


def _crl_setup(case):
    if case.crl_mode:
        return
    case.crl_mode = True
    # One CRL from every CA of the chain (leaf's issuer first, root last), so `openssl verify -crl_check_all`
    # has a CRL in scope for every certificate.
    issuer = case.leaf.issuer_cert
    seen = set()
    while id(issuer) not in seen:
        seen.add(id(issuer))
        case.crls.append(X.CRL(issuer, case.at - 3 * DAY, case.at + 4 * DAY))
        if issuer.issuer_cert is issuer:
            break
        issuer = issuer.issuer_cert


def _crl_set_ext(crl, ext):
    crl.exts = [e for e in crl.exts if e.oid != ext.oid] + [ext]


def _revoke(crl, serial_der, exts=None, when=None):
    crl.entries.append((serial_der, when or crl.this_update - DAY, exts or []))


@mutation("crl", 6)
def m_crl(case, rng):
    _crl_setup(case)
    leaf_crl = case.crls[0]
    v = rng.choice(["clean", "revoke-leaf", "revoke-leaf", "revoke-int", "bad-sig", "wrong-key", "issuer-mismatch",
                    "expired", "future", "no-next-update", "unknown-critical-ext", "unknown-critical-entry-ext",
                    "sig-oid-unknown", "sig-oid-md5", "sig-oid-oiw-sha1", "v1-with-exts", "entry-serial-leading-zero",
                    "entry-reason-remove-from-crl", "entry-certificate-issuer", "idp-only-ca", "idp-only-user",
                    "idp-only-attr", "idp-indirect", "idp-some-reasons", "delta", "aki-mismatch", "issuer-no-crlsign",
                    "newer-clean-crl", "older-revoking-crl", "extra-bad-crl-masking", "root-crl-lists-leaf",
                    "entry-serial-negative-alias", "entry-future-revocation-date", "crl-number-missing",
                    "crl-number-negative", "idp-dp-name-mismatch", "two-crls-bad-first", "v1-crl",
                    "duplicate-entries", "entry-hold", "sig-oid-mismatch", "crl-empty-revoked-seq"])
    leaf_serial = case.leaf.serial
    revoking = True
    if v == "clean":
        revoking = False
    elif v == "revoke-leaf":
        _revoke(leaf_crl, leaf_serial)
    elif v == "revoke-int":
        if len(case.crls) < 2:
            return None
        _revoke(case.crls[1], case.leaf.issuer_cert.serial)
    else:
        _revoke(leaf_crl, leaf_serial)
        if v == "bad-sig":
            leaf_crl.sig_transform = lambda s: s[:-1] + bytes([s[-1] ^ 1])
        elif v == "wrong-key":
            leaf_crl.signing_key = keys.get("rsa2048-other")
        elif v == "issuer-mismatch":
            leaf_crl.issuer = X.name(("cn", "Somebody Else"))
        elif v == "expired":
            leaf_crl.this_update, leaf_crl.next_update = case.at - 10 * DAY, case.at - DAY
        elif v == "future":
            leaf_crl.this_update = case.at + DAY
        elif v == "no-next-update":
            leaf_crl.next_update = None
        elif v == "unknown-critical-ext":
            leaf_crl.exts.append(X.Ext(X.OID["unknown"], True, der.null()))
        elif v == "unknown-critical-entry-ext":
            leaf_crl.entries[-1] = (leaf_serial, leaf_crl.this_update - DAY, [X.Ext(X.OID["unknown"], True, der.null())])
        elif v == "sig-oid-unknown":
            leaf_crl.sigalg = X.alg_id("unknown")
        elif v == "sig-oid-md5":
            if X.key_kind(leaf_crl.issuer_cert.key) != "rsa":
                return None
            leaf_crl.sigalg, leaf_crl.sign_hash = X.alg_id("md5WithRSA"), "md5"
        elif v == "sig-oid-oiw-sha1":
            if X.key_kind(leaf_crl.issuer_cert.key) != "rsa":
                return None
            leaf_crl.sigalg, leaf_crl.sign_hash = X.alg_id("oiw-sha1WithRSA"), "sha1"
        elif v == "sig-oid-mismatch":
            leaf_crl.sigalg_outer = X.alg_id("unknown")
        elif v == "v1-with-exts":
            leaf_crl.version = None
        elif v == "v1-crl":
            leaf_crl.version, leaf_crl.exts = None, []
        elif v == "entry-serial-leading-zero":
            leaf_crl.entries[-1] = (der.integer_raw(b"\x00" + der.children(der.seq(leaf_serial))[0][2:]),
                                    leaf_crl.this_update - DAY, [])
        elif v == "entry-serial-negative-alias":
            content = leaf_serial[2:]
            leaf_crl.entries[-1] = (der.integer_raw(bytes([content[0] | 0x80]) + content[1:]), leaf_crl.this_update - DAY, [])
            revoking = False
        elif v == "entry-reason-remove-from-crl":
            leaf_crl.entries[-1] = (leaf_serial, leaf_crl.this_update - DAY,
                                    [X.Ext(X.OID["reason"], False, der.tlv(0x0A, b"\x08"))])
        elif v == "entry-hold":
            leaf_crl.entries[-1] = (leaf_serial, leaf_crl.this_update - DAY,
                                    [X.Ext(X.OID["reason"], False, der.tlv(0x0A, b"\x06"))])
        elif v == "entry-certificate-issuer":
            leaf_crl.entries[-1] = (leaf_serial, leaf_crl.this_update - DAY,
                                    [X.Ext(X.OID["certissuer"], True, X.san(X.gn_dirname(X.name(("cn", "Other CA")))))])
        elif v.startswith("idp-"):
            field = {"idp-only-ca": der.tlv(0x82, b"\xff"), "idp-only-user": der.tlv(0x81, b"\xff"),
                     "idp-only-attr": der.tlv(0x85, b"\xff"), "idp-indirect": der.tlv(0x84, b"\xff"),
                     "idp-some-reasons": der.tlv(0x83, b"\x07\x80"),
                     "idp-dp-name-mismatch": der.ctx(0, der.ctx(0, X.gn_uri("http://crl.example.com/other.crl")))}[v]
            leaf_crl.exts.append(X.Ext(X.OID["idp"], True, der.seq(field)))
            if v in ("idp-only-ca", "idp-only-attr", "idp-some-reasons"):
                revoking = False
        elif v == "delta":
            leaf_crl.exts.append(X.Ext(X.OID["deltacrl"], True, der.integer(1)))
        elif v == "aki-mismatch":
            _crl_set_ext(leaf_crl, X.Ext(X.OID["aki"], False, X.aki_value(b"\x01" * 20)))
        elif v == "issuer-no-crlsign":
            leaf_crl.issuer_cert.set_ext("ku", True, X.ku("digitalSignature", "keyCertSign"))
        elif v == "newer-clean-crl":
            newer = X.CRL(leaf_crl.issuer_cert, case.at - DAY, case.at + 6 * DAY)
            newer.exts[0] = X.Ext(X.OID["crlnum"], False, der.integer(2))
            case.crls.append(newer)
            revoking = False
        elif v == "older-revoking-crl":
            leaf_crl.this_update = case.at - 5 * DAY
            newer = X.CRL(leaf_crl.issuer_cert, case.at - DAY, case.at + 6 * DAY)
            newer.exts[0] = X.Ext(X.OID["crlnum"], False, der.integer(2))
            case.crls.insert(0, newer)
            revoking = False
        elif v in ("extra-bad-crl-masking", "two-crls-bad-first"):
            bad = X.CRL(leaf_crl.issuer_cert, case.at - DAY, case.at + 6 * DAY)
            bad.sig_transform = lambda s: s[:-1] + bytes([s[-1] ^ 1])
            if v == "two-crls-bad-first":
                case.crls.insert(0, bad)
            else:
                case.crls.append(bad)
        elif v == "root-crl-lists-leaf":
            leaf_crl.entries.clear()
            if len(case.crls) < 2:
                return None
            _revoke(case.crls[1], leaf_serial)
            revoking = False
        elif v == "entry-future-revocation-date":
            leaf_crl.entries[-1] = (leaf_serial, case.at + 30 * DAY, [])
        elif v == "crl-number-missing":
            leaf_crl.exts = [e for e in leaf_crl.exts if e.oid != X.OID["crlnum"]]
        elif v == "crl-number-negative":
            _crl_set_ext(leaf_crl, X.Ext(X.OID["crlnum"], False, der.integer(-1)))
        elif v == "duplicate-entries":
            _revoke(leaf_crl, leaf_serial)
        elif v == "crl-empty-revoked-seq":
            leaf_crl.entries = [b""]
            revoking = False
    case.tag("crl.%s%s" % (v, "" if revoking else "/not-revoking"))


def apply_random(case, rng, count, steps=None):
    """Applies `count` mutations drawn by weight (a mutation that does not apply to this case is redrawn).

    `steps`, when given, receives one (rng state, function, tags added) per applied mutation, so that `replay` can
    rebuild the case without one of them (the classifier's ablation check)."""
    total = sum(w for _, w, _ in CATALOGUE)
    done = 0
    attempts = 0
    while done < count and attempts < 50:
        attempts += 1
        x = rng.uniform(0, total)
        for family, w, fn in CATALOGUE:
            x -= w
            if x <= 0:
                break
        before = len(case.mutations)
        state = rng.getstate()
        fn(case, rng)
        if len(case.mutations) > before:
            done += 1
            if steps is not None:
                steps.append((state, fn, list(case.mutations[before:])))


class NotAblatable(Exception):
    """Replaying the other mutations without one of them does not give the same tags (a later mutation depended
    on the one left out): that ablation is skipped."""


def replay(case, steps, skip):
    """Applies every step of `steps` but number `skip` to a fresh `case`, each from its own recorded rng state."""
    import random

    for i, (state, fn, tags) in enumerate(steps):
        if i == skip:
            continue
        r = random.Random()
        r.setstate(state)
        before = len(case.mutations)
        fn(case, r)
        if case.mutations[before:] != tags:
            raise NotAblatable("step %d gave %s instead of %s" % (i, case.mutations[before:], tags))
