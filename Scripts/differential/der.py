"""A small DER encoder: every byte of a generated certificate, CRL or name is written here, so a mutation can
produce exactly the (possibly non-DER, possibly nonsensical) encoding it wants."""

import datetime as _dt


def length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def tlv(tag: int, content: bytes) -> bytes:
    return bytes([tag]) + length(len(content)) + content


def seq(*items: bytes) -> bytes:
    return tlv(0x30, b"".join(items))


def set_(*items: bytes) -> bytes:
    return tlv(0x31, b"".join(items))


def set_der(*items: bytes) -> bytes:
    """A SET OF in DER order (elements sorted by their encodings)."""
    return tlv(0x31, b"".join(sorted(items)))


def integer_content(n: int) -> bytes:
    """Minimal two's-complement content octets of `n`."""
    if n == 0:
        return b"\x00"
    size = (n.bit_length() + 8) // 8 if n > 0 else ((-n - 1).bit_length() + 8) // 8
    return n.to_bytes(size, "big", signed=True)


def integer(n: int) -> bytes:
    return tlv(0x02, integer_content(n))


def integer_raw(content: bytes) -> bytes:
    return tlv(0x02, content)


def boolean(v: bool) -> bytes:
    return tlv(0x01, b"\xff" if v else b"\x00")


def null() -> bytes:
    return b"\x05\x00"


def octet(b: bytes) -> bytes:
    return tlv(0x04, b)


def bitstring(b: bytes, unused: int = 0) -> bytes:
    return tlv(0x03, bytes([unused]) + b)


def named_bits(bits) -> bytes:
    """A DER NamedBitList BIT STRING (trailing zero bits removed) with the given bit numbers set."""
    bits = sorted(set(bits))
    if not bits:
        return bitstring(b"")
    nbytes = bits[-1] // 8 + 1
    buf = bytearray(nbytes)
    for b in bits:
        buf[b // 8] |= 0x80 >> (b % 8)
    unused = 7 - (bits[-1] % 8)
    return bitstring(bytes(buf), unused)


def oid_content(dotted: str) -> bytes:
    parts = [int(p) for p in dotted.split(".")]
    first = parts[0] * 40 + parts[1]
    out = bytearray()
    for arc in [first] + parts[2:]:
        chunk = [arc & 0x7F]
        arc >>= 7
        while arc:
            chunk.append(0x80 | (arc & 0x7F))
            arc >>= 7
        out += bytes(reversed(chunk))
    return bytes(out)


def oid(dotted: str) -> bytes:
    return tlv(0x06, oid_content(dotted))


def utf8(s: str) -> bytes:
    return tlv(0x0C, s.encode("utf-8"))


def printable(s: str) -> bytes:
    return tlv(0x13, s.encode("ascii"))


def ia5(s) -> bytes:
    return tlv(0x16, s if isinstance(s, bytes) else s.encode("latin-1"))


def ctx(n: int, content: bytes, constructed: bool = True) -> bytes:
    return tlv((0xA0 if constructed else 0x80) | n, content)


def utctime(t: _dt.datetime, fmt: str = "%y%m%d%H%M%SZ") -> bytes:
    return tlv(0x17, t.strftime(fmt).encode())


def gentime(t: _dt.datetime, fmt: str = "%Y%m%d%H%M%SZ") -> bytes:
    return tlv(0x18, t.strftime(fmt).encode())


def time(t: _dt.datetime) -> bytes:
    """RFC 5280 Time: UTCTime through 2049, GeneralizedTime from 2050."""
    return utctime(t) if 1950 <= t.year < 2050 else gentime(t)


def parse_tlv(data: bytes, offset: int = 0):
    """(tag, header length, content length) at `offset`."""
    tag = data[offset]
    first = data[offset + 1]
    if first < 0x80:
        return tag, 2, first
    n = first & 0x7F
    return tag, 2 + n, int.from_bytes(data[offset + 2 : offset + 2 + n], "big")


def children(data: bytes):
    """The encoded children of a constructed TLV `data`."""
    _, hl, cl = parse_tlv(data)
    out, off, end = [], hl, hl + cl
    while off < end:
        _, h, c = parse_tlv(data, off)
        out.append(data[off : off + h + c])
        off += h + c
    return out


def pem(label: str, der_bytes: bytes) -> str:
    import base64

    b = base64.b64encode(der_bytes).decode()
    lines = [b[i : i + 64] for i in range(0, len(b), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----\n"
