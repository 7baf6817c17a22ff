@testable import CertKit
import CertKitTestSupport
import Testing

/// The linear replacements of quadratic algorithms decide exactly as the originals did: the compiled name
/// constraints, the byte-wise fold, the sorted comparison of multi-valued RDNs, the whole-DER hash.
@Suite("Limits: linear algorithms")
struct LimitsAlgorithmTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func pick<T>(_ items: [T], _ random: inout Generator) -> T { items[Int(random.next() % UInt64(items.count))] }

    static func host(_ random: inout Generator) -> String {
        let labels = ["a", "B", "ex", "example", "com", "", "*", "x-y"]
        let count = 1 + Int(random.next() % 4)
        var text = (0..<count).map { _ in pick(labels, &random) }.joined(separator: ".")
        if random.next() % 5 == 0 { text = "." + text }
        if random.next() % 7 == 0 { text += "." }
        return text
    }

    static func generalName(_ random: inout Generator, base: Bool) -> GeneralName {
        switch random.next() % 6 {
        case 0, 1: return .dnsName(host(&random))
        case 2:
            let local = pick(["", "user", "User"], &random)
            let shape = random.next() % 3
            return .email(shape == 0 ? host(&random) : shape == 1 ? "@" + host(&random) : local + "@" + host(&random))
        case 3:
            if base { return .uri(host(&random)) }
            return .uri(pick(["https://", "ldap://u@", "mailto:", "http://"], &random) + host(&random)
                + pick(["", ":443", "/path", "?q"], &random))
        case 4:
            // IPv4, IPv6, IPv4-mapped IPv6, and (rarely) a length that is neither.
            let shape = random.next() % 8
            var bytes: [UInt8]
            switch shape {
            case 0...2: bytes = (0..<4).map { _ in pick([0, 10, 192, 168, 255, 8] as [UInt8], &random) }
            case 3, 4: bytes = (0..<16).map { _ in pick([0, 0x20, 0x01, 0x0d, 0xb8, 255] as [UInt8], &random) }
            case 5, 6:
                bytes = [UInt8](repeating: 0, count: 10) + [255, 255]
                    + (0..<4).map { _ in pick([0, 10, 192, 168, 8] as [UInt8], &random) }
            default: bytes = [10, 0, 0]
            }
            if !base { return .ipAddress(bytes) }
            let masks: [[UInt8]] = bytes.count == 4
                ? [[255, 0, 0, 0], [255, 255, 0, 0], [0, 0, 0, 0], [255, 255, 255, 255], [255, 0, 255, 0]]
                : [[UInt8](repeating: 255, count: 12) + [255, 0, 0, 0], [UInt8](repeating: 0, count: 16),
                   [UInt8](repeating: 255, count: 16), [255, 255] + [UInt8](repeating: 0, count: 14)]
            let mask = bytes.count == 3 ? [255, 0, 0] : pick(masks, &random)
            return .ipAddress(bytes + mask)
        default:
            let values = ["Example", "EXAMPLE ", "other", "ex  ample"]
            let rdns = (0..<(1 + Int(random.next() % 2))).map { _ in
                (oid: pick([LimitsTestCertificates.organization, LimitsTestCertificates.commonName], &random),
                 value: pick(values, &random))
            }
            let der = LimitsTestCertificates.name(rdns)
            return .directoryName(try! DERReader.read(der) { reader throws(CertificateDecodingError) in
                try NameParser.parse(reader.next()!, limits: .default)
            })
        }
    }

    @Test("compiled name constraints decide as NameConstraintsChecker on 20,000 random names")
    func compiledConstraintsAgree() {
        var random = Generator(state: 12)
        var outcomes: [Bool: Int] = [:]
        for _ in 0..<2_000 {
            let constraints = NameConstraints(
                permitted: (0..<Int(random.next() % 4)).map { _ in Self.generalName(&random, base: true) },
                excluded: (0..<Int(random.next() % 3)).map { _ in Self.generalName(&random, base: true) })
            let compiled = CompiledNameConstraints(constraints)
            for _ in 0..<10 {
                let name = Self.generalName(&random, base: false)
                let expected = NameConstraintsChecker.isAllowed(name, by: constraints)
                outcomes[expected, default: 0] += 1
                #expect(compiled.isAllowed(name) == expected,
                        "\(name) under permitted \(constraints.permitted) excluded \(constraints.excluded)")
            }
        }
        #expect(outcomes[true, default: 0] > 2_000 && outcomes[false, default: 0] > 2_000, "\(outcomes)")
    }

    @Test("compiled violations list what NameConstraintsChecker lists, with and without validNamesOnly")
    func compiledViolationsAgree() throws {
        var random = Generator(state: 99)
        let subject = LimitsTestCertificates.name([(LimitsTestCertificates.organization, "Example")])
        let invalid: [GeneralName] = [.dnsName("-bad-"), .dnsName("a..b"), .email("no-at-sign"), .uri("no scheme")]
        var listed = 0
        for round in 0..<300 {
            let sans = (0..<Int(random.next() % 6)).map { _ in Self.generalName(&random, base: false) }
                + (round % 2 == 0 ? [Self.pick(invalid, &random)] : [])
            let certificate = try LimitsTestCertificates.make(
                issuer: subject, subject: subject, serial: round, ca: false,
                extensions: [LimitsTestCertificates.subjectAltName(sans)])
            let constraints = NameConstraints(
                permitted: (0..<Int(random.next() % 4)).map { _ in Self.generalName(&random, base: true) },
                excluded: (0..<Int(random.next() % 3)).map { _ in Self.generalName(&random, base: true) })
            let extra = [Self.generalName(&random, base: false)]
            #expect(certificate.extensions.subjectAlternativeNames?.count == sans.count)
            for validNamesOnly in [false, true] {
                let expected = NameConstraintsChecker.violations(
                    of: constraints, certificate: certificate, extraNames: extra, validNamesOnly: validNamesOnly)
                listed += expected.count
                #expect(CompiledNameConstraints(constraints).violations(
                    of: certificate, extraNames: extra, validNamesOnly: validNamesOnly) == expected)
            }
        }
        #expect(listed > 300, "\(listed) violations in all")
    }

    @Test("the byte-wise fold equals the Unicode fold on ASCII text")
    func asciiFold() {
        var random = Generator(state: 7)
        let characters: [Character] = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1F}", "a", "Z", "m", "0", ".", "-"]
        for _ in 0..<5_000 {
            let text = String((0..<Int(random.next() % 12)).map { _ in Self.pick(characters, &random) })
            let reference = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").lowercased()
            #expect(NameFormatting.fold(text) == reference, "\(Array(text.utf8))")
        }
        #expect(NameFormatting.fold("  Ünïcode\u{00A0}NAME ") == "ünïcode name")
    }

    @Test("multi-valued RDNs match as sets of folded attributes")
    func multiValuedRDNs() throws {
        func name(_ attributes: [([UInt8], UInt8, String)]) throws -> DistinguishedName {
            let set = DERBuilder.set(attributes.map { oid, tag, value in
                DERBuilder.sequence([DERBuilder.tlv(0x06, oid), DERBuilder.tlv(tag, Array(value.utf8))])
            })
            return try DERReader.read(DERBuilder.sequence([set])) { reader throws(CertificateDecodingError) in
                guard let node = try reader.next() else { throw CertificateDecodingError(.empty, "no name") }
                return try NameParser.parse(node, limits: .default)
            }
        }
        let cn = LimitsTestCertificates.commonName, o = LimitsTestCertificates.organization
        let left = try name([(cn, 0x0C, "a  b"), (o, 0x0C, "Org")])
        #expect(left.matches(try name([(o, 0x13, "ORG"), (cn, 0x13, " A B ")])))
        #expect(!left.matches(try name([(o, 0x16, "Org"), (cn, 0x0C, "a b")])), "IA5String is not folded")
        #expect(!left.matches(try name([(cn, 0x0C, "a b"), (cn, 0x0C, "a b")])))
        #expect(try name([(cn, 0x0C, "x"), (cn, 0x0C, "x"), (o, 0x0C, "y")])
            .matches(try name([(o, 0x0C, "Y"), (cn, 0x0C, "X"), (cn, 0x0C, "x")])))
        #expect(FoldedNameKey(left) == FoldedNameKey(try name([(o, 0x13, "org"), (cn, 0x0C, "A B")])))
    }

    @Test("certificates that share every byte but the serial hash apart; equal DER hashes alike")
    func wholeDERHash() throws {
        let matrix = try AdversarialMatrix.load()
        let der = try AdversarialMatrix.expand(try matrix.recipe("pool-60000-same-tail", "pool", count: 1_000))
        let certificates = try CertificateBundle.decode(der).certificates
        #expect(Set(certificates.map { Array($0.derEncoded.suffix(16)) }).count == 1)
        #expect(Set(certificates).count == 1_000)
        #expect(Set(certificates.map(\.hashValue)).count >= 995)
        let again = try Certificate(derEncoded: certificates[7].derEncoded)
        #expect(again == certificates[7] && again.hashValue == certificates[7].hashValue)
    }
}
