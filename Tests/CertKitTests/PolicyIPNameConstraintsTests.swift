@testable import CertKit
import Testing

/// iPAddress name constraints as one name form across address families: a permitted range holds
/// addresses of its own family only (IPv4, IPv4-mapped IPv6, other IPv6), an excluded one every spelling.
@Suite("Name constraints: IP addresses across families")
struct PolicyIPNameConstraintsTests {
    // Names.
    static let v4Inside: [UInt8] = [10, 1, 2, 3]
    static let v4Outside: [UInt8] = [8, 8, 8, 8]
    static let v4Private: [UInt8] = [192, 168, 1, 1]
    static let v6Doc: [UInt8] = [0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 11) + [1]
    static func mapped(_ v4: [UInt8]) -> [UInt8] { Array(repeating: 0, count: 10) + [0xFF, 0xFF] + v4 }

    // Ranges (address ‖ mask).
    static let ten: [UInt8] = [10, 0, 0, 0, 255, 0, 0, 0]
    static let private16: [UInt8] = [192, 168, 0, 0, 255, 255, 0, 0]
    static func v6Range(_ address: [UInt8], prefix: Int) -> [UInt8] {
        let mask = (0..<16).map { index -> UInt8 in
            let bits = max(0, min(8, prefix - index * 8))
            return bits == 0 ? 0 : UInt8(0xFF << (8 - bits) & 0xFF)
        }
        return address + mask
    }
    static let doc32 = v6Range([0x20, 0x01, 0x0d, 0xb8] + Array(repeating: 0, count: 12), prefix: 32)
    static let allV6 = v6Range(Array(repeating: 0, count: 16), prefix: 0)
    static let mappedTen = v6Range(mapped([10, 0, 0, 0]), prefix: 104)
    static let mappedPrivate = v6Range(mapped([192, 168, 0, 0]), prefix: 112)

    static func allowed(_ address: [UInt8], permitted: [[UInt8]] = [], excluded: [[UInt8]] = []) -> Bool {
        NameConstraintsChecker.isAllowed(
            .ipAddress(address),
            by: NameConstraints(permitted: permitted.map(GeneralName.ipAddress), excluded: excluded.map(GeneralName.ipAddress)))
    }

    @Test func ipv4PermittedSubtreesConstrainEveryFamily() {
        #expect(Self.allowed(Self.v4Inside, permitted: [Self.ten]))
        #expect(!Self.allowed(Self.v4Outside, permitted: [Self.ten]))
        #expect(!Self.allowed(Self.v6Doc, permitted: [Self.ten]), "an IPv6 name escapes an IPv4-only permitted list")
        #expect(!Self.allowed(Self.mapped(Self.v4Outside), permitted: [Self.ten]), "::ffff:8.8.8.8 is 8.8.8.8")
        // A permitted IPv4 range holds IPv4 addresses only (RFC 5280 §4.2.1.10 compares equal lengths).
        #expect(!Self.allowed(Self.mapped(Self.v4Inside), permitted: [Self.ten]), "::ffff:10.1.2.3 is 16 bytes")
    }

    @Test func ipv6PermittedSubtreesConstrainEveryFamily() {
        #expect(Self.allowed(Self.v6Doc, permitted: [Self.doc32]))
        #expect(!Self.allowed(Self.v4Inside, permitted: [Self.doc32]))
        #expect(!Self.allowed(Self.mapped(Self.v4Inside), permitted: [Self.doc32]))
        // Both families permitted: each name must lie in a range of its own family.
        #expect(Self.allowed(Self.v6Doc, permitted: [Self.ten, Self.doc32]))
        #expect(Self.allowed(Self.v4Inside, permitted: [Self.ten, Self.doc32]))
        #expect(!Self.allowed(Self.v4Outside, permitted: [Self.ten, Self.doc32]))
    }

    @Test func anIPv6RangeOutsideTheMappedBlockPermitsNoIPv4Address() {
        #expect(Self.allowed(Self.v6Doc, permitted: [Self.allV6]))
        #expect(!Self.allowed(Self.v4Inside, permitted: [Self.allV6]))
        #expect(!Self.allowed(Self.mapped(Self.v4Inside), permitted: [Self.allV6]))
    }

    /// A permitted IPv4-mapped range holds IPv4-mapped addresses only, not the IPv4 addresses they map (RFC 5280
    /// compares an address with ranges of its own length, as OpenSSL, pyca and Chrome do); an excluded
    /// one excludes both spellings.
    @Test func mappedFormRangesPermitTheirOwnFamilyAndExcludeBoth() {
        #expect(!Self.allowed(Self.v4Inside, permitted: [Self.mappedTen]), "10.1.2.3 is not within ::ffff:10.0.0.0/104")
        #expect(Self.allowed(Self.mapped(Self.v4Inside), permitted: [Self.mappedTen]))
        #expect(!Self.allowed(Self.mapped(Self.v4Outside), permitted: [Self.mappedTen]))
        #expect(!Self.allowed(Self.v4Outside, permitted: [Self.mappedTen]))
        #expect(Self.allowed(Self.v4Inside, permitted: [Self.mappedTen, Self.ten]), "each family has its own range")
        #expect(!Self.allowed(Self.v4Private, excluded: [Self.mappedPrivate]))
        #expect(!Self.allowed(Self.mapped(Self.v4Private), excluded: [Self.mappedPrivate]))
        #expect(Self.allowed(Self.v4Inside, excluded: [Self.mappedPrivate]))
    }

    @Test func excludedIPv4RangesCannotBeEvadedThroughTheMappedForm() {
        #expect(!Self.allowed(Self.v4Private, excluded: [Self.private16]))
        #expect(!Self.allowed(Self.mapped(Self.v4Private), excluded: [Self.private16]))
        #expect(Self.allowed(Self.v4Inside, excluded: [Self.private16]))
        #expect(Self.allowed(Self.v6Doc, excluded: [Self.private16]))
    }

    @Test func excludedIPv6RangesApplyToIPv4NamesThroughTheirMappedForm() {
        #expect(!Self.allowed(Self.v4Inside, excluded: [Self.allV6]), "::/0 excludes every address")
        #expect(!Self.allowed(Self.v6Doc, excluded: [Self.allV6]))
        #expect(Self.allowed(Self.v4Inside, excluded: [Self.doc32]))
        #expect(!Self.allowed(Self.v6Doc, excluded: [Self.doc32]))
    }

    @Test func malformedRangesPermitNothingAndExcludeEverything() {
        let nonContiguous: [UInt8] = [10, 0, 0, 0, 255, 0, 255, 0]
        let nonContiguousV6 = Self.v6Range(Array(repeating: 0, count: 16), prefix: 8).enumerated()
            .map { $0.offset == 31 ? 1 : $0.element }
        let wrongLength: [UInt8] = [10, 0, 0, 0, 255, 0, 0]
        for range in [nonContiguous, nonContiguousV6, wrongLength] {
            #expect(!Self.allowed([10, 0, 0, 0], permitted: [range]), "\(range)")
            #expect(!Self.allowed(Self.v6Doc, permitted: [range]), "\(range)")
            #expect(!Self.allowed(Self.v4Outside, excluded: [range]), "\(range)")
            #expect(!Self.allowed(Self.v6Doc, excluded: [range]), "\(range)")
        }
        // A malformed range next to a good one: the good one still permits.
        #expect(Self.allowed(Self.v4Inside, permitted: [nonContiguous, Self.ten]))
    }

    @Test func aMalformedAddressViolatesAnyIPConstraintButNoOtherForm() {
        let fiveBytes: [UInt8] = [10, 1, 2, 3, 4]
        #expect(!Self.allowed(fiveBytes, permitted: [Self.ten]))
        #expect(!Self.allowed(fiveBytes, excluded: [Self.private16]))
        let dnsOnly = NameConstraints(permitted: [.dnsName("example.com")], excluded: [])
        #expect(NameConstraintsChecker.isAllowed(.ipAddress(fiveBytes), by: dnsOnly))
        #expect(NameConstraintsChecker.isAllowed(.ipAddress(Self.v4Outside), by: dnsOnly))
    }

    @Test func ipConstraintsDoNotTouchOtherForms() {
        let constraints = NameConstraints(permitted: [.ipAddress(Self.ten)], excluded: [.ipAddress(Self.allV6)])
        #expect(NameConstraintsChecker.isAllowed(.dnsName("leaf.example"), by: constraints))
        #expect(NameConstraintsChecker.isAllowed(.email("a@b.example"), by: constraints))
    }

    @Test func rangeModel() throws {
        #expect(IPAddressRange.isContiguous([255, 255, 0, 0]))
        #expect(IPAddressRange.isContiguous([255, 255, 254, 0]))
        #expect(IPAddressRange.isContiguous([0, 0, 0, 0]))
        #expect(!IPAddressRange.isContiguous([255, 0, 255, 0]))
        #expect(!IPAddressRange.isContiguous([0b1011_0000, 0, 0, 0]))
        #expect(IPAddressRange.canonicalAddress(Self.mapped([1, 2, 3, 4])) == [1, 2, 3, 4])
        #expect(IPAddressRange.canonicalAddress(Self.v6Doc) == Self.v6Doc)
        #expect(IPAddressRange.canonicalAddress([1, 2, 3]) == nil)
        let mappedTen = try #require(IPAddressRange(constraint: Self.mappedTen))
        #expect(mappedTen.network == [10, 0, 0, 0] && mappedTen.mask == [255, 0, 0, 0])
        #expect(mappedTen.family == .ipv4Mapped)
        #expect(mappedTen.permits(Self.mapped(Self.v4Inside)) && !mappedTen.permits(Self.v4Inside))
        #expect(try #require(IPAddressRange(constraint: Self.ten)).family == .ipv4)
        #expect(try #require(IPAddressRange(constraint: Self.doc32)).family == .ipv6)
        // Host bits set in the constraint's address are masked away.
        let loose = try #require(IPAddressRange(constraint: [10, 9, 9, 9, 255, 0, 0, 0]))
        #expect(loose.network == [10, 0, 0, 0])
        #expect(loose.contains(Self.v4Inside))
        // An IPv6 range whose mask stops short of /96 is not an IPv4 range, even over the mapped prefix.
        let short = try #require(IPAddressRange(constraint: Self.v6Range(Self.mapped([0, 0, 0, 0]), prefix: 95)))
        #expect(short.network.count == 16 && short.family == .ipv6)
        #expect(!short.permits(Self.mapped([1, 2, 3, 4])), "::ffff:1.2.3.4 is IPv4-mapped, not of the IPv6 family")
        #expect(IPAddressRange(constraint: Array(repeating: 0, count: 16)) == nil)
    }
}
