"""Deterministic test keys: each named key is derived from its name alone (never from the run's --seed), so
every run, every worker and every reproducer uses the same keys. Generated once and cached as PEM under
.build/differential-keys (RSA primes are found in pure Python, which takes a few seconds the first time)."""

import hashlib
import os
import random

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

_SMALL_PRIMES = [p for p in range(3, 2000) if all(p % d for d in range(2, int(p**0.5) + 1))]

# name -> (kind, parameter)
SPECS = {
    "rsa2048-root": ("rsa", 2048),
    "rsa2048-int": ("rsa", 2048),
    "rsa2048-int2": ("rsa", 2048),
    "rsa2048-leaf": ("rsa", 2048),
    "rsa2048-other": ("rsa", 2048),
    "rsa1024": ("rsa", 1024),
    "rsa1536": ("rsa", 1536),
    "rsa3072": ("rsa", 3072),
    "rsa2048-e3": ("rsa-e3", 2048),
    "p256-root": ("ec", "secp256r1"),
    "p256-int": ("ec", "secp256r1"),
    "p256-int2": ("ec", "secp256r1"),
    "p256-leaf": ("ec", "secp256r1"),
    "p256-other": ("ec", "secp256r1"),
    "p384-root": ("ec", "secp384r1"),
    "p384-int": ("ec", "secp384r1"),
    "p521": ("ec", "secp521r1"),
    "p224": ("ec", "secp224r1"),
    "p192": ("ec", "secp192r1"),
    "k256": ("ec", "secp256k1"),
    "ed25519": ("ed25519", None),
    "ed25519-root": ("ed25519", None),
    "ed448": ("ed448", None),
}

_CURVES = {
    "secp256r1": ec.SECP256R1,
    "secp384r1": ec.SECP384R1,
    "secp521r1": ec.SECP521R1,
    "secp224r1": ec.SECP224R1,
    "secp192r1": ec.SECP192R1,
    "secp256k1": ec.SECP256K1,
}

_cache = {}


def _probable_prime(n: int, rng: random.Random) -> bool:
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(24):
        a = rng.randrange(2, n - 2)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int, e: int, rng: random.Random) -> int:
    while True:
        c = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if (c - 1) % e == 0:
            continue
        if _probable_prime(c, rng):
            return c


def _rsa(bits: int, e: int, rng: random.Random):
    while True:
        p, q = _prime(bits // 2, e, rng), _prime(bits // 2, e, rng)
        if p == q:
            continue
        n = p * q
        if n.bit_length() != bits:
            continue
        phi = (p - 1) * (q - 1)
        d = pow(e, -1, phi)
        pub = rsa.RSAPublicNumbers(e, n)
        priv = rsa.RSAPrivateNumbers(
            p, q, d, d % (p - 1), d % (q - 1), pow(q, -1, p), pub
        )
        return priv.private_key()


def _generate(name: str):
    kind, param = SPECS[name]
    rng = random.Random(hashlib.sha256(b"certkit-differential-key:" + name.encode()).digest())
    if kind == "rsa":
        return _rsa(param, 65537, rng)
    if kind == "rsa-e3":
        return _rsa(param, 3, rng)
    if kind == "ec":
        curve = _CURVES[param]()
        order_bits = curve.key_size
        return ec.derive_private_key(rng.getrandbits(order_bits - 1) | 1, curve)
    if kind == "ed25519":
        return ed25519.Ed25519PrivateKey.from_private_bytes(rng.randbytes(32))
    if kind == "ed448":
        return ed448.Ed448PrivateKey.from_private_bytes(rng.randbytes(57))
    raise ValueError(kind)


def cache_dir() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "..", ".build", "differential-keys")


def get(name: str):
    key = _cache.get(name)
    if key is not None:
        return key
    path = os.path.join(cache_dir(), name + ".pem")
    if os.path.exists(path):
        with open(path, "rb") as f:
            key = serialization.load_pem_private_key(f.read(), None)
    else:
        key = _generate(name)
        os.makedirs(cache_dir(), exist_ok=True)
        tmp = path + f".{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(
                key.private_bytes(
                    serialization.Encoding.PEM,
                    serialization.PrivateFormat.PKCS8,
                    serialization.NoEncryption(),
                )
            )
        os.replace(tmp, path)
    _cache[name] = key
    return key


def warm():
    for name in SPECS:
        get(name)
