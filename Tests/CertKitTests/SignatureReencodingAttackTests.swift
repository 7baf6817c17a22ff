@testable import CertKit
import CertKitBackends
import CertKitTestSupport
import Foundation
import Testing

/// Certificates re-encoded without any key, on both backends: an ECDSA signature's `s`
/// replaced by `n − s` (verifies on both libraries, another SHA-256), a zero-padded INTEGER or a long-form length
/// (GnuTLS verified them), an RSA signature one byte long or short. None escapes a `deny`, a `--distrust` or a
/// store's deny; the non-canonical encodings are `Signature` failures before any library sees them.
@Suite("re-encoded signatures: deny binds to the certificate's identity, signatures must be canonical")
struct SignatureReencodingAttackTests {
    static let date = Date(timeIntervalSince1970: 1_906_502_400)  // 2030-06-01, the fixtures' verify date
    static let p256Order = ReencodedCertificate.p256Order

    /// valid-chain-ec: leaf.example ← Int EC ← Root EC, every signature ECDSA P-256.
    struct ECPKI {
        let leaf: Certificate
        let intermediate: Certificate
        let root: Certificate

        init() throws {
            let chain = try Fixtures.certificates("valid-chain-ec/chain.pem")
            leaf = chain[0]
            intermediate = chain[1]
            root = try Fixtures.certificates("valid-chain-ec/root-ec.pem")[0]
        }
    }

    // MARK: building the copies (ReencodedCertificate)

    static func resigned(_ certificate: Certificate, signature: [UInt8]) throws -> Certificate {
        try ReencodedCertificate.withSignature(certificate, signature)
    }

    static func integer(_ magnitude: [UInt8]) -> [UInt8] { ReencodedCertificate.integer(magnitude) }
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { ReencodedCertificate.subtract(a, b) }
    static func sigValue(r: [UInt8], s: [UInt8]) -> [UInt8] { ReencodedCertificate.sigValue(r: r, s: s) }

    /// The copy anyone can make: another DER, the same tbsCertificate, a valid signature.
    static func malleated(_ certificate: Certificate) throws -> Certificate {
        let copy = try ReencodedCertificate.malleated(certificate)
        #expect(copy != certificate && copy.tbsCertificateBytes == certificate.tbsCertificateBytes)
        return copy
    }

    static func zeroPadded(_ certificate: Certificate) throws -> Certificate { try ReencodedCertificate.zeroPadded(certificate) }
    static func longForm(_ certificate: Certificate) throws -> Certificate { try ReencodedCertificate.longForm(certificate) }

    // MARK: evaluating

    static func evaluate(
        _ backend: any TrustBackend, chain: [Certificate], anchors: [Certificate], settings: TrustSettings = .none,
        host: String = "leaf.example", exceptions: TrustExceptions? = nil
    ) -> TrustReport {
        TrustEvaluator(backend: backend).evaluate(TrustEvaluation(
            certificates: chain, policies: [.sslServer(host: host)], anchors: anchors, anchorsOnly: true,
            verifyDate: date, trustSettings: settings, exceptions: exceptions))
    }

    static func link(_ certificate: Certificate, by signer: Certificate) throws -> SignatureInput {
        SignatureInput(
            scheme: try #require(certificate.signatureAlgorithm.scheme), signedBytes: certificate.tbsCertificateBytes,
            signature: certificate.signatureBytes, signerKey: signer.publicKey)
    }

    // MARK: item 1: a malleated copy carries the original's negative settings

    @Test("the premise: n − s verifies on both libraries, and the copy chains unspecified without settings")
    func malleatedCopyVerifies() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        for backend in BackendRegistry.standard.allBackends() {
            #expect(try backend.verifySignature(Self.link(copy, by: pki.root)) == .valid, "\(backend.name)")
            let report = Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [pki.root])
            #expect(report.result == .unspecified, "\(backend.name): \(report.checks)")
        }
    }

    @Test("--distrust of an intermediate denies its malleated copy")
    func distrustedIntermediateCopy() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        for backend in BackendRegistry.standard.allBackends() {
            let report = Self.evaluate(
                backend, chain: [pki.leaf, copy], anchors: [pki.root], settings: TrustSettings(distrust: [pki.intermediate]))
            #expect(report.result == .deny, "\(backend.name): \(report.result) \(report.checks)")
            #expect(report.checks.count > 1 && report.checks[1].contains(.usageConstraints), "\(backend.name)")
        }
    }

    @Test("a store's deny of an intermediate denies its malleated copy, even with the root trusted (was proceed)")
    func storeDenyIntermediateCopy() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        let settings = TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: pki.root, constraints: [.init(result: .trustRoot)]),
            CertificateTrustSettings(certificate: pki.intermediate, constraints: [.init(result: .deny)]),
        ])
        for backend in BackendRegistry.standard.allBackends() {
            let report = Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [], settings: settings)
            #expect(report.result == .deny, "\(backend.name): \(report.result) \(report.checks)")
        }
    }

    @Test("a deny limited to another policy or host does not follow the copy further than the original")
    func scopedDenyFollowsScope() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        let settings = TrustSettings(certificateSettings: [
            CertificateTrustSettings(
                certificate: pki.intermediate, constraints: [.init(result: .deny, policy: .sslServer, host: "other.example")])
        ])
        // The index itself (an evaluation could also pass through the original, which is in the pool).
        let index = TrustSettingsIndex(settings)
        #expect(!index.resolution(for: copy, under: .sslServer(host: "leaf.example")).isDenied)
        #expect(!index.resolution(for: copy, under: .basicX509).isDenied)
        #expect(index.resolution(for: copy, under: .sslServer(host: "other.example")).isDenied)
        for backend in BackendRegistry.standard.allBackends() {
            #expect(Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [pki.root], settings: settings).result == .unspecified)
            #expect(Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [pki.root], settings: settings, host: "other.example")
                .result == .deny)
        }
    }

    @Test("a leaf-bound deny denies the malleated leaf; an exception for the leaf does not cover the copy")
    func leafBoundDecisions() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.leaf)
        for backend in BackendRegistry.standard.allBackends() {
            let denied = Self.evaluate(
                backend, chain: [copy, pki.intermediate], anchors: [pki.root], settings: TrustSettings(distrust: [pki.leaf]))
            #expect(denied.result == .deny, "\(backend.name): \(denied.result) \(denied.checks)")
            // An exception is a positive decision: bound to the exact leaf it was made for.
            let original = Self.evaluate(backend, chain: [pki.leaf, pki.intermediate], anchors: [pki.root], host: "wrong.example")
            let exceptions = try #require(original.exceptions)
            #expect(Self.evaluate(
                backend, chain: [pki.leaf, pki.intermediate], anchors: [pki.root], host: "wrong.example", exceptions: exceptions
            ).result == .proceed)
            let onCopy = Self.evaluate(
                backend, chain: [copy, pki.intermediate], anchors: [pki.root], host: "wrong.example", exceptions: exceptions)
            #expect(onCopy.result == .recoverableTrustFailure, "\(backend.name): \(onCopy.result)")
        }
    }

    @Test("a deny that is not its certificate's first setting still reaches the copies (a store keeps settings per policy)")
    func denyAfterAnotherSetting() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        let settings = TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: pki.intermediate, constraints: [
                .init(result: .trustAsRoot, policy: .sslClient), .init(result: .deny, policy: .sslServer),
            ])
        ])
        let index = TrustSettingsIndex(settings)
        #expect(index.resolution(for: copy, under: .sslServer(host: "leaf.example")).isDenied)
        #expect(index.resolution(for: pki.intermediate, under: .sslServer(host: "leaf.example")).isDenied)
        for backend in BackendRegistry.standard.allBackends() {
            let report = Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [pki.root], settings: settings)
            #expect(report.result == .deny, "\(backend.name): \(report.result) \(report.checks)")
        }
    }

    @Test("export leaves out a trusted root denied through one identity alone (issuer+serial, or subject+key)")
    func exportLeavesOutOneIdentityRelation() throws {
        let pki = try ECPKI()
        // TBS fields: 1 serial, 5 subject. Each copy shares exactly one identity with the root.
        let sameIssuerSerial = try Self.withTBSFields(pki.root, [5: Self.name("Another Subject")])
        let sameSubjectKey = try Self.withTBSFields(pki.root, [1: DERBuilder.tlv(0x02, [0x7E, 0x57])])
        for related in [sameIssuerSerial, sameSubjectKey] {
            let directory = try TemporaryDirectory(prefix: "certkit-store")
            let store = TrustStoreTests.store(directory)
            try store.add(pki.root, constraint: .init(result: .trustRoot))
            try store.add(related, constraint: .init(result: .deny))
            let selection = try store.exportSelection()
            #expect(selection.included.isEmpty, "\(selection.included.map(\.certificate.subject))")
            #expect(Set(selection.skipped.map(\.entry.certificate)) == [pki.root, related])
        }
    }

    @Test("a trustAsRoot setting stays bound to the exact certificate: the copy is not an anchor")
    func positiveSettingIsExact() throws {
        let pki = try ECPKI()
        let copy = try Self.malleated(pki.intermediate)
        let settings = TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: pki.intermediate, constraints: [.init(result: .trustAsRoot)])
        ])
        let index = TrustSettingsIndex(settings)
        #expect(index.isAnchor(pki.intermediate, under: .sslServer(host: "leaf.example")))
        #expect(!index.isAnchor(copy, under: .sslServer(host: "leaf.example")))
    }

    @Test("a store with the root trusted and a malleated copy of the root denied: the chain is denied, the root not exported")
    func storeHoldsDeniedCopy() throws {
        let pki = try ECPKI()
        let directory = try TemporaryDirectory(prefix: "certkit-store")
        let store = TrustStoreTests.store(directory)
        let copy = try Self.malleated(pki.root)
        try store.add(pki.root, constraint: .init(result: .trustRoot))
        try store.add(copy, constraint: .init(result: .deny))
        // Read back from the file (the format keeps certificates, and the identities come from them).
        let settings = try store.trustSettings()
        for backend in BackendRegistry.standard.allBackends() {
            let report = Self.evaluate(backend, chain: [pki.leaf, pki.intermediate], anchors: [], settings: settings)
            #expect(report.result == .deny, "\(backend.name): \(report.result) \(report.checks)")
        }
        let selection = try store.exportSelection()
        #expect(selection.included.isEmpty && selection.skipped.map(\.entry.certificate) == [pki.root, copy])
        #expect(selection.skipped.first?.reason.contains("same issuer and serial") == true)
    }

    // MARK: item 1: the identities a deny binds to

    /// `certificate` with the tbsCertificate fields at `replacements` (index among the TBS's fields, version
    /// included) replaced; the signature is left as it is (the index does not verify).
    static func withTBSFields(_ certificate: Certificate, _ replacements: [Int: [UInt8]]) throws -> Certificate {
        let (fields, rest) = try DERReader.read(certificate.derEncoded) { (top) throws(CertificateDecodingError) in
            var outer = try top.read(DERTag.sequence, "certificate").children()
            var tbs = try outer.read(DERTag.sequence, "tbs").children()
            var fields: [[UInt8]] = []
            while let node = try tbs.next() { fields.append(node.encoded) }
            var rest: [[UInt8]] = []
            while let node = try outer.next() { rest.append(node.encoded) }
            return (fields, rest)
        }
        var changed = fields
        for (index, value) in replacements { changed[index] = value }
        return try Certificate(derEncoded: DERBuilder.sequence([DERBuilder.sequence(changed)] + rest))
    }

    static func name(_ cn: String, tag: UInt8 = 0x0C) -> [UInt8] {
        DERBuilder.sequence([DERBuilder.set([DERBuilder.sequence([
            DERBuilder.tlv(0x06, [0x55, 0x04, 0x03]), DERBuilder.tlv(tag, Array(cn.utf8)),
        ])])])
    }

    @Test("deny binds to issuer+serial and to subject+key, each alone; another certificate stays untouched")
    func identities() throws {
        let pki = try ECPKI()
        // TBS fields of a v3 certificate: 0 version, 1 serial, 2 signature, 3 issuer, 4 validity, 5 subject, 6 SPKI.
        let sameIssuerSerial = try Self.withTBSFields(pki.intermediate, [5: Self.name("Another Subject")])
        let sameSubjectKey = try Self.withTBSFields(pki.intermediate, [1: DERBuilder.tlv(0x02, [0x7E, 0x57])])
        // The subject spelled another way (PrintableString, upper case, doubled space): RFC 5280 §7.1 equal.
        let sameSubjectKeyRespelled = try Self.withTBSFields(
            pki.intermediate, [1: DERBuilder.tlv(0x02, [0x7E, 0x57]), 5: Self.name("INT  EC", tag: 0x13)])
        #expect(sameSubjectKeyRespelled.subject.derEncoded != pki.intermediate.subject.derEncoded)
        let unrelated = try Self.withTBSFields(
            pki.intermediate, [1: DERBuilder.tlv(0x02, [0x7E, 0x57]), 5: Self.name("Another Subject")])
        #expect(sameIssuerSerial.serialNumber == pki.intermediate.serialNumber && sameIssuerSerial.subject != pki.intermediate.subject)
        #expect(sameSubjectKey.serialNumber != pki.intermediate.serialNumber && sameSubjectKey.publicKey == pki.intermediate.publicKey)
        let policy = TrustPolicy.sslServer(host: "leaf.example")
        for settings in [
            TrustSettings(distrust: [pki.intermediate]),
            TrustSettings(certificateSettings: [CertificateTrustSettings(certificate: pki.intermediate, constraints: [.init(result: .deny)])]),
        ] {
            let index = TrustSettingsIndex(settings)
            #expect(index.resolution(for: sameIssuerSerial, under: policy).isDenied, "issuer+serial")
            #expect(index.resolution(for: sameSubjectKey, under: policy).isDenied, "subject+key")
            #expect(index.resolution(for: sameSubjectKeyRespelled, under: policy).isDenied, "subject (folded)+key")
            #expect(index.resolution(for: try Self.malleated(pki.intermediate), under: policy).isDenied, "tbsCertificate")
            #expect(!index.resolution(for: unrelated, under: policy).isDenied, "unrelated")
            #expect(!index.resolution(for: pki.root, under: policy).isDenied && !index.resolution(for: pki.leaf, under: policy).isDenied)
        }
        // Deny beats a trust setting of the related certificate; allowed errors stay with their own certificate.
        let mixed = TrustSettingsIndex(TrustSettings(certificateSettings: [
            CertificateTrustSettings(certificate: sameSubjectKey, constraints: [.init(result: .trustAsRoot, allowedErrors: [.temporalValidity])]),
            CertificateTrustSettings(certificate: pki.intermediate, constraints: [.init(result: .deny)]),
        ]))
        let resolution = mixed.resolution(for: sameSubjectKey, under: policy)
        #expect(resolution.isDenied && !resolution.isAnchor && resolution.allowedErrors == [.temporalValidity])
        #expect(mixed.anchors(for: [policy]).isEmpty)
    }

    // MARK: item 2: non-canonical signature values are refused before the library

    @Test("zero-padded and long-form ECDSA signatures of the intermediate: Signature on both backends")
    func nonDERECDSA() throws {
        let pki = try ECPKI()
        for copy in [try Self.zeroPadded(pki.intermediate), try Self.longForm(pki.intermediate)] {
            for backend in BackendRegistry.standard.allBackends() {
                let report = Self.evaluate(backend, chain: [pki.leaf, copy], anchors: [pki.root])
                #expect(report.result == .recoverableTrustFailure, "\(backend.name): \(report.result)")
                #expect(report.checks.count > 1 && report.checks[1].contains(.signature), "\(backend.name): \(report.checks)")
                // The same with the original denied: never past the deny either.
                let denied = Self.evaluate(
                    backend, chain: [pki.leaf, copy], anchors: [pki.root], settings: TrustSettings(distrust: [pki.intermediate]))
                #expect(!denied.isTrusted, "\(backend.name)")
            }
        }
    }

    @Test("an RSA signature one byte long (a zero byte in front) or one byte short: Signature on both backends")
    func rsaSignatureLength() throws {
        let chain = try Fixtures.certificates("valid-chain-rsa/chain.pem")
        let root = try Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0]
        let signature = chain[1].signatureBytes
        for altered in [[0x00] + signature, Array(signature.dropFirst()), Array(signature.dropLast())] {
            let copy = try Self.resigned(chain[1], signature: altered)
            for backend in BackendRegistry.standard.allBackends() {
                let report = Self.evaluate(backend, chain: [chain[0], copy], anchors: [root])
                #expect(report.result == .recoverableTrustFailure, "\(backend.name) \(altered.count): \(report.result)")
                #expect(report.checks.count > 1 && report.checks[1].contains(.signature), "\(backend.name): \(report.checks)")
            }
        }
    }

    @Test("Ed25519 with S + L (the other encoding of S): refused on both backends")
    func ed25519ScalarPlusOrder() throws {
        let path = try Fixtures.certificates("attacks-ed25519-chain/chain.pem")
            + Fixtures.certificates("attacks-ed25519-chain/root-ed25519.pem")
        // L = 2^252 + 27742317777372353535851937790883648493, little-endian.
        let order = Array(Hex.decode("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")!)
        for (certificate, signer) in zip(path, path.dropFirst()) where certificate.signatureAlgorithm.scheme == .ed25519 {
            var signature = certificate.signatureBytes
            var carry = 0
            for index in 0..<32 {
                let sum = Int(signature[32 + index]) + Int(order[index]) + carry
                signature[32 + index] = UInt8(sum & 0xFF)
                carry = sum >> 8
            }
            #expect(carry == 0)
            let copy = try Self.resigned(certificate, signature: signature)
            for backend in BackendRegistry.standard.allBackends() {
                #expect(try backend.verifySignature(Self.link(certificate, by: signer)) == .valid, "\(backend.name)")
                #expect(try backend.verifySignature(Self.link(copy, by: signer)) != .valid, "\(backend.name) accepts S + L")
            }
        }
    }

    @Test("the ECDSA-Sig-Value rules, one by one")
    func ecdsaRules() throws {
        let order = Self.p256Order
        let one: [UInt8] = [0x01]
        let nMinusOne = Self.integer(Self.subtract(order, one))
        let valid = Self.sigValue(r: one, s: nMinusOne)
        #expect(SignatureValueEncoding.ecdsaProblem(valid, order: Array(order)) == nil)
        let refused: [(String, [UInt8])] = [
            ("r = 0", Self.sigValue(r: [0x00], s: one)),
            ("s = 0", Self.sigValue(r: one, s: [0x00])),
            ("s = n", Self.sigValue(r: one, s: Self.integer(order))),
            ("r = n + 1 (longer)", Self.sigValue(r: Self.integer([0x01] + [UInt8](repeating: 0, count: 32)), s: one)),
            ("negative r", Self.sigValue(r: [0xFF], s: one)),
            ("negative s", Self.sigValue(r: one, s: [0x80, 0x01])),
            ("zero-padded r", Self.sigValue(r: [0x00, 0x01], s: one)),
            ("long-form length", [0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]),
            ("a byte after it", valid + [0x00]),
            ("a third INTEGER", DERBuilder.tlv(0x30, DERBuilder.tlv(0x02, one) + DERBuilder.tlv(0x02, one) + DERBuilder.tlv(0x02, one))),
            ("only r", DERBuilder.tlv(0x30, DERBuilder.tlv(0x02, one))),
            ("a SET", DERBuilder.tlv(0x31, DERBuilder.tlv(0x02, one) + DERBuilder.tlv(0x02, one))),
            ("empty", []),
        ]
        for (what, signature) in refused {
            #expect(SignatureValueEncoding.ecdsaProblem(signature, order: Array(order)) != nil, "\(what)")
        }
    }

    /// `value` (big-endian) as `count` little-endian bytes.
    static func littleEndian(_ value: [UInt8], count: Int) -> [UInt8] {
        Array(value.reversed()) + [UInt8](repeating: 0, count: count - value.count)
    }

    /// `value` (big-endian) plus or minus one, big-endian, same length (no carry out of the top byte here).
    static func adding(_ delta: Int, to value: [UInt8]) -> [UInt8] {
        var result = value
        var index = result.count - 1
        if delta > 0 {
            while result[index] == 0xFF { result[index] = 0; index -= 1 }
            result[index] += 1
        } else {
            while result[index] == 0 { result[index] = 0xFF; index -= 1 }
            result[index] -= 1
        }
        return result
    }

    @Test("EdDSA: S is below the group order L — L − 1 passes, L and L + 1 are refused (Ed25519 and Ed448)")
    func edDSAScalarBound() {
        // The last octet's smallest value past L: Ed25519 0x20 (2^253 > L ≈ 2^252), Ed448 0x01 (2^448 > L ≈ 2^446).
        let cases: [(PublicKeyInfo.Algorithm, SignatureScheme, [UInt8], Int, UInt8)] = [
            (.ed25519, .ed25519, SignatureValueEncoding.ed25519Order, 32, 0x20),
            (.ed448, .ed448, SignatureValueEncoding.ed448Order, 57, 0x01),
        ]
        for (algorithm, scheme, order, half, pastOrder) in cases {
            let key = PublicKeyInfo(algorithm: algorithm, derEncoded: [])
            // R: a canonical point encoding (for Ed448 the final octet holds only the sign of x).
            let r = [UInt8](repeating: 0x5A, count: half - 1) + [half == 57 ? 0x00 : 0x5A]
            func signature(_ s: [UInt8]) -> [UInt8] { r + Self.littleEndian(s, count: half) }
            #expect(SignatureValueEncoding.problem(signature(Self.adding(-1, to: order)), scheme: scheme, key: key) == nil, "\(scheme) L − 1")
            #expect(SignatureValueEncoding.problem(signature([0x00]), scheme: scheme, key: key) == nil, "\(scheme) S = 0")
            #expect(SignatureValueEncoding.problem(signature(order), scheme: scheme, key: key) != nil, "\(scheme) L")
            #expect(SignatureValueEncoding.problem(signature(Self.adding(1, to: order)), scheme: scheme, key: key) != nil, "\(scheme) L + 1")
            var top = signature([0x00])
            top[top.count - 1] = pastOrder  // one bit in the last octet (a flipped bit): S > L
            #expect(SignatureValueEncoding.problem(top, scheme: scheme, key: key) != nil, "\(scheme) top bit")
        }
    }

    @Test("EdDSA: a signature is exactly 64 (Ed25519) or 114 (Ed448) bytes — one byte more or less is refused by the core")
    func edDSALength() {
        for (algorithm, scheme, half) in [(PublicKeyInfo.Algorithm.ed25519, SignatureScheme.ed25519, 32),
                                          (.ed448, .ed448, 57)] {
            let key = PublicKeyInfo(algorithm: algorithm, derEncoded: [])
            // A canonical R and S = 0, then a zero octet more (S read little-endian is unchanged) or one less.
            let exact = [UInt8](repeating: 0x5A, count: half - 1) + [half == 57 ? 0x00 : 0x5A]
                + [UInt8](repeating: 0, count: half)
            #expect(SignatureValueEncoding.problem(exact, scheme: scheme, key: key) == nil, "\(scheme) exact length")
            for wrong in [exact + [0], Array(exact.dropLast())] {
                let problem = SignatureValueEncoding.problem(wrong, scheme: scheme, key: key)
                #expect(problem?.contains("\(wrong.count) bytes long") == true, "\(scheme) \(wrong.count) bytes: \(problem ?? "accepted")")
            }
        }
    }

    @Test("a genuine Ed25519 signature with L added to S is refused before either library sees it; the genuine one verifies")
    func edDSAScalarPlusOrder() throws {
        let chain = try Fixtures.certificates("attacks-ed25519-chain/chain.pem")
        let root = try Fixtures.certificates("attacks-ed25519-chain/root-ed25519.pem")[0]
        let path = chain + [root]
        for (subject, issuer) in zip(path, path.dropFirst()) {
            let scheme = try #require(subject.signatureAlgorithm.scheme)
            guard case .ed25519 = scheme else { continue }
            let genuine = SignatureInput(
                scheme: scheme, signedBytes: subject.tbsCertificateBytes, signature: subject.signatureBytes,
                signerKey: issuer.publicKey)
            // S + L, little-endian, with the carry (S < L < 2^253, so S + L < 2^254 fits in 32 bytes).
            var malleated = genuine
            let order = Array(SignatureValueEncoding.ed25519Order.reversed()) + [UInt8](repeating: 0, count: 32 - SignatureValueEncoding.ed25519Order.count)
            var carry = 0
            for index in 0..<32 {
                let sum = Int(malleated.signature[32 + index]) + Int(order[index]) + carry
                malleated.signature[32 + index] = UInt8(sum & 0xFF)
                carry = sum >> 8
            }
            #expect(carry == 0)
            for backend in BackendRegistry.standard.allBackends() {
                #expect(try PathSignatureCheck.verify(genuine, backend: backend) == nil, "\(backend.name) genuine")
                let problem = try PathSignatureCheck.verify(malleated, backend: backend)
                #expect(problem?.contains("not below the group order") == true, "\(backend.name): \(problem ?? "verified")")
            }
        }
    }

    @Test("lengths per key: RSA the modulus, Ed25519 64, Ed448 114; ECDSA on a curve of unknown order is refused")
    func lengths() throws {
        let rsa = try Fixtures.certificates("valid-chain-rsa/root-rsa.pem")[0].publicKey
        guard case .rsa(let bits) = rsa.algorithm else { Issue.record("not RSA"); return }
        let size = (bits + 7) / 8
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: size), scheme: .rsaPKCS1(.sha256), key: rsa) == nil)
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: size + 1), scheme: .rsaPKCS1(.sha256), key: rsa) != nil)
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: size - 1), scheme: .rsaPSS(.sha256, saltLength: 32), key: rsa) != nil)
        let ed25519 = PublicKeyInfo(algorithm: .ed25519, derEncoded: [])
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: 64), scheme: .ed25519, key: ed25519) == nil)
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: 65), scheme: .ed25519, key: ed25519) != nil)
        let ed448 = PublicKeyInfo(algorithm: .ed448, derEncoded: [])
        let ed448Half = [UInt8](repeating: 1, count: 56) + [0]
        #expect(SignatureValueEncoding.problem(ed448Half + ed448Half, scheme: .ed448, key: ed448) == nil)
        #expect(SignatureValueEncoding.problem([UInt8](repeating: 1, count: 113), scheme: .ed448, key: ed448) != nil)
        let signature = Self.sigValue(r: [0x01], s: [0x01])
        let explicit = PublicKeyInfo(algorithm: .ec(curve: PublicKeyInfo.explicitCurve, bits: 256), derEncoded: [])
        #expect(SignatureValueEncoding.problem(signature, scheme: .ecdsa(.sha256), key: explicit) != nil)
        for curve in PublicKeyParser.curves.values {
            let key = PublicKeyInfo(algorithm: .ec(curve: curve.name, bits: curve.bits), derEncoded: [])
            #expect(SignatureValueEncoding.problem(signature, scheme: .ecdsa(.sha256), key: key) == nil, "\(curve.name)")
            // The order's length matches the curve: n itself is refused.
            let order = try #require(SignatureValueEncoding.curveOrders[curve.name])
            #expect((order.count * 8 - order[0].leadingZeroBitCount) == curve.bits, "\(curve.name)")
        }
    }
}
