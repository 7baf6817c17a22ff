import Testing
@testable import CertKit

@Suite struct EncodingNameAndAddressTests {
    /// A DER Name from (OID bytes, value tag, value) RDNs, one attribute each.
    static func name(_ rdns: [([UInt8], UInt8, String)]) throws -> DistinguishedName {
        let sets = rdns.map { oid, tag, value in
            DERBuilder.set([DERBuilder.sequence([DERBuilder.tlv(0x06, oid), DERBuilder.tlv(tag, Array(value.utf8))])])
        }
        return try DERReader.read(DERBuilder.sequence(sets)) { reader throws(CertificateDecodingError) in
            guard let node = try reader.next() else { throw CertificateDecodingError(.empty, "no name") }
            return try NameParser.parse(node, limits: .default)
        }
    }

    static let cn: [UInt8] = [0x55, 0x04, 0x03]
    static let o: [UInt8] = [0x55, 0x04, 0x0A]

    @Test("a name is checked whole at decode: a bad attribute type is refused before its text is ever asked for")
    func namesCheckedAtDecode() throws {
        #expect(throws: CertificateDecodingError.self) { try Self.name([([0x80, 0x01], DERTag.utf8String, "x")]) }
        #expect(throws: CertificateDecodingError.self) { try Self.name([(Self.cn, DERTag.utf8String, "a"), ([0x55, 0x84], DERTag.utf8String, "b")]) }
        let name = try Self.name([(Self.o, DERTag.printableString, "Org"), (Self.cn, DERTag.utf8String, "Zoë")])
        let copy = name
        #expect(copy.relativeNames.map { $0.map(\.value) } == [["Org"], ["Zoë"]])
        #expect(name.relativeNames.map { $0.map(\.oid) } == [["2.5.4.10"], ["2.5.4.3"]])
        #expect(name.description == "CN=Zoë,O=Org")
    }

    @Test func namesMatchPerRFC5280() throws {
        let a = try Self.name([(Self.o, DERTag.printableString, "Example  Org"), (Self.cn, DERTag.utf8String, "Root CA")])
        let b = try Self.name([(Self.o, DERTag.utf8String, " example org "), (Self.cn, DERTag.printableString, "ROOT   ca")])
        let c = try Self.name([(Self.o, DERTag.utf8String, "Example Org"), (Self.cn, DERTag.utf8String, "Other CA")])
        let reordered = try Self.name([(Self.cn, DERTag.utf8String, "Root CA"), (Self.o, DERTag.utf8String, "Example Org")])
        let ia5 = try Self.name([(Self.o, DERTag.ia5String, "Example Org"), (Self.cn, DERTag.utf8String, "Root CA")])
        #expect(a.matches(a))
        #expect(a.matches(b))
        #expect(b.matches(a))
        #expect(a != b)
        #expect(!a.matches(c))
        #expect(!a.matches(reordered))
        #expect(!a.matches(ia5))
        #expect(a.description == "CN=Root CA,O=Example  Org")
        #expect(a.commonName == "Root CA")
    }

    @Test func escapesRFC4514() {
        #expect(NameFormatting.escape("#a b ") == "\\#a b\\ ")
        #expect(NameFormatting.escape(" a,b+c;d<e>f\"g\\h") == "\\ a\\,b\\+c\\;d\\<e\\>f\\\"g\\\\h")
        #expect(NameFormatting.escape("nul\u{0}") == "nul\\00")
        #expect(NameFormatting.escape("a=b#c") == "a=b#c")
    }

    @Test func decodesStringTypes() throws {
        let bmp = try Self.name([])
        #expect(bmp.relativeNames.isEmpty)
        #expect(bmp.description == "")
        #expect(DirectoryString.decode(tag: DERTag.bmpString, [0x00, 0x5A, 0x00, 0xEB][...]) == "Zë")
        #expect(DirectoryString.decode(tag: DERTag.universalString, [0, 0, 0, 0x41, 0, 1, 0xF6, 0x00][...]) == "A😀")
        #expect(DirectoryString.decode(tag: DERTag.teletexString, [0x4D, 0xFC][...]) == "Mü")
        #expect(DirectoryString.decode(tag: DERTag.utf8String, [0xFF][...]) == nil)
        #expect(DirectoryString.decode(tag: DERTag.printableString, [0xC3, 0xA9][...]) == nil)
        #expect(DirectoryString.decode(tag: DERTag.bmpString, [0x00][...]) == nil)
    }

    @Test func formatsAddresses() {
        #expect(IPAddressFormatting.string([192, 0, 2, 1]) == "192.0.2.1")
        #expect(IPAddressFormatting.string([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]) == "2001:db8::1:0:0:1")
        #expect(IPAddressFormatting.string([UInt8](repeating: 0, count: 16)) == "::")
        #expect(IPAddressFormatting.string([UInt8](repeating: 0, count: 15) + [1]) == "::1")
        #expect(IPAddressFormatting.string([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]) == "2001:db8:0:1:1:1:1:1")
        #expect(IPAddressFormatting.string([0x20, 0x01, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]) == "2001:0:0:1::1")
        #expect(IPAddressFormatting.string([10, 0, 0, 0, 255, 0, 0, 0]) == "10.0.0.0/255.0.0.0")
        #expect(IPAddressFormatting.string([0xfe, 0x80] + [UInt8](repeating: 0, count: 14) + [0xff, 0xc0] + [UInt8](repeating: 0, count: 14))
            == "fe80::/ffc0::")
        #expect(IPAddressFormatting.string([1, 2, 3]) == "#010203")
    }

    @Test func parsesAddresses() {
        #expect(IPAddressParsing.parse("192.0.2.1") == [192, 0, 2, 1])
        #expect(IPAddressParsing.parse("::1") == [UInt8](repeating: 0, count: 15) + [1])
        #expect(IPAddressParsing.parse("::") == [UInt8](repeating: 0, count: 16))
        #expect(IPAddressParsing.parse("2001:DB8::1") == [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1])
        #expect(IPAddressParsing.parse("::ffff:192.0.2.1") == [UInt8](repeating: 0, count: 10) + [0xff, 0xff, 192, 0, 2, 1])
        #expect(IPAddressParsing.parse("1:2:3:4:5:6:7:8") == [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8])
        #expect(IPAddressParsing.parse("1:2:3:4:5:6:1.2.3.4") == [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4])
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.-4", "example.com", "1::2::3", ":::",
                    "1:2:3:4:5:6:7:8:9", "12345::", "g::1", "[::1", "::1]", "1:2:3:4:5:6:7", "::1.2.3.4:5", " 1.2.3.4",
                    "1.2.3.4::", "[1.2.3.4]", "1:2:3:4:5:6:7::8:9", "[2001:db8::1]", "[::1]", "fe80::1%eth0", "1.2.3.4."] {
            #expect(IPAddressParsing.parse(bad) == nil, "\(bad)")
        }
        #expect(PeerName.parse("10.1.2.3") == .ip([10, 1, 2, 3]))
        #expect(PeerName.parse("host.example") == .dns("host.example"))
    }
}
