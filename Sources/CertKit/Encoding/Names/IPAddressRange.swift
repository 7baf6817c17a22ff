/// An iPAddress name-constraint subtree (RFC 5280 §4.2.1.10): a network and a contiguous mask. A permitted subtree
/// holds only addresses of its own family (``permits(_:)``: IPv4, IPv4-mapped IPv6, other IPv6); an excluded one
/// also covers the other spellings of its addresses, IPv4 and IPv4-mapped IPv6 (`::ffff:a.b.c.d`, RFC 4291
/// §2.5.5.2) taken as the same addresses (``contains(_:)``, ``containsInIPv6Form(_:)``).
///
/// - An address is compared in its canonical form (``canonicalAddress(_:)``): 4 bytes for IPv4 and for an
///   IPv4-mapped IPv6 address, 16 bytes for any other IPv6 address.
/// - A constraint of 8 bytes is an IPv4 address and mask; one of 32 bytes an IPv6 address and mask. An IPv6
///   range that lies entirely inside `::ffff:0:0/96` (mask of at least 96 leading one bits, address starting
///   `::ffff`) is the IPv4 range of its last four bytes, so `::ffff:10.0.0.0/104` is `10.0.0.0/8`.
/// - Any other length, or a mask whose one bits are not all leading (`255.0.255.0`), is malformed: there is
///   no such range (``init(constraint:)`` is nil) and callers must fail closed.
struct IPAddressRange: Hashable, Sendable {
    /// The masked network address: 4 bytes (IPv4) or 16 (IPv6 outside the mapped block).
    let network: [UInt8]
    /// The mask, as long as ``network``.
    let mask: [UInt8]
    /// The family of the addresses the range was written for: an 8-byte constraint is IPv4, a 32-byte one inside
    /// `::ffff:0:0/96` IPv4-mapped IPv6, any other 32-byte one IPv6.
    let family: Family

    /// An address family as written: RFC 5280 §4.2.1.10 gives IPv4 ranges in 8 octets and IPv6 ranges in 32, and
    /// compares an address only with ranges of its own length; IPv4-mapped IPv6 is kept apart from both.
    enum Family: Sendable, Hashable {
        case ipv4, ipv4Mapped, ipv6

        /// The family of an address's bytes (4: IPv4; 16: IPv4-mapped IPv6 or IPv6), nil for any other length.
        init?(address bytes: [UInt8]) {
            switch bytes.count {
            case 4: self = .ipv4
            case 16: self = bytes[0..<12].elementsEqual(IPAddressRange.mappedPrefix) ? .ipv4Mapped : .ipv6
            default: return nil
            }
        }
    }

    /// The first 12 bytes of every IPv4-mapped IPv6 address.
    static let mappedPrefix: [UInt8] = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF]

    /// The range of a constraint's `address ‖ mask` bytes, or nil when malformed.
    init?(constraint bytes: [UInt8]) {
        guard bytes.count == 8 || bytes.count == 32 else { return nil }
        let half = bytes.count / 2
        var address = Array(bytes[0..<half])
        var mask = Array(bytes[half...])
        guard Self.isContiguous(mask) else { return nil }
        var family: Family = half == 4 ? .ipv4 : .ipv6
        if half == 16, mask[0..<12].allSatisfy({ $0 == 0xFF }), address[0..<12].elementsEqual(Self.mappedPrefix) {
            address = Array(address[12...])
            mask = Array(mask[12...])
            family = .ipv4Mapped
        }
        self.family = family
        self.network = zip(address, mask).map { $0 & $1 }
        self.mask = mask
    }

    /// The form an address is compared in: IPv4 (4 bytes) for IPv4 and IPv4-mapped IPv6, the 16 bytes for other
    /// IPv6; nil for any other length (not an address).
    static func canonicalAddress(_ bytes: [UInt8]) -> [UInt8]? {
        switch bytes.count {
        case 4: return bytes
        case 16: return bytes[0..<12].elementsEqual(mappedPrefix) ? Array(bytes[12...]) : bytes
        default: return nil
        }
    }

    /// True when `address` (its bytes as encoded, 4 or 16) lies in this range as a permitted subtree holds it: the
    /// address is of the range's ``family`` (an IPv4 address is never within an IPv6 range, an IPv4-mapped one
    /// included, nor the other way round: RFC 5280 §4.2.1.10 compares an address with ranges of its own length),
    /// and equal to the network under the mask.
    func permits(_ bytes: [UInt8]) -> Bool {
        guard Family(address: bytes) == family, let address = Self.canonicalAddress(bytes) else { return false }
        return contains(address)
    }

    /// True when `address` (canonical form) is in this range: same family, and equal to the network under the mask.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        return zip(zip(address, mask), network).allSatisfy { pair, net in pair.0 & pair.1 == net }
    }

    /// True when `address` (canonical form) is in this range as written in 16 bytes: an IPv4 address as its
    /// IPv4-mapped form, so `::/0` or `::/64` also cover every IPv4 address. Used for excluded subtrees, where
    /// covering more is the safe side.
    func containsInIPv6Form(_ address: [UInt8]) -> Bool {
        if contains(address) { return true }
        guard network.count == 16, address.count == 4 else { return false }
        return contains(Self.mappedPrefix + address)
    }

    /// True when the mask's one bits all come before its zero bits.
    static func isContiguous(_ mask: [UInt8]) -> Bool {
        var seenZero = false
        for byte in mask {
            for bit in (0..<8).reversed() {
                let isOne = byte & (1 << bit) != 0
                if isOne && seenZero { return false }
                if !isOne { seenZero = true }
            }
        }
        return true
    }
}
