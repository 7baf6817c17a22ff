import CertKit
import Testing

@Suite("Aggregation as trustd does it")
struct PolicyAggregationTests {
    @Test func noFailureIsUnspecifiedOrProceed() {
        #expect(TrustAggregator.result(checks: [[], []], leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .unspecified)
        #expect(TrustAggregator.result(checks: [[], []], leafSHA256: nil, alwaysTrusted: true, exceptions: nil) == .proceed)
    }

    @Test func fatalAndDenyAreNeverDowngraded() {
        #expect(TrustAggregator.result(checks: [[.sslHostname, .revocation]], leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .fatalTrustFailure)
        #expect(TrustAggregator.result(checks: [[.temporalValidity], [.usageConstraints]], leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .deny)
        #expect(TrustAggregator.result(checks: [[.temporalValidity], [.usageConstraints, .weakKeySize]], leafSHA256: nil, alwaysTrusted: true, exceptions: nil) == .fatalTrustFailure)
        #expect(TrustAggregator.result(checks: [[.temporalValidity]], leafSHA256: nil, alwaysTrusted: true, exceptions: nil) == .recoverableTrustFailure)
        #expect(TrustAggregator.result(checks: [[.backendError]], leafSHA256: nil, alwaysTrusted: false, exceptions: nil) == .otherError)
    }

    @Test func errorPriorityThenLowestIndex() {
        // Revoked > KeySize > WeakHash > Denied > Pinning > Trust > Usage > Name > Expired
        let order: [TrustCheck] = [.revocation, .keySize, .signatureHashAlgorithms, .usageConstraints, .leafSPKISHA256,
                                   .anchorTrusted, .extendedKeyUsage, .sslHostname, .temporalValidity]
        for (higher, lower) in zip(order, order.dropFirst()) {
            #expect(higher.priority > lower.priority, "\(higher) must outrank \(lower)")
            let picked = TrustAggregator.primaryFailure([[lower], [higher]])
            #expect(picked?.check == higher && picked?.index == 1)
        }
        let tie = TrustAggregator.primaryFailure([[.sslHostname], [.nameConstraints], [.sslHostname]])
        #expect(tie?.index == 0)
        #expect(TrustAggregator.primaryFailure([[], []]) == nil)
    }

    @Test func resultTypeKeepsSecTrustRawValues() {
        #expect(TrustResultType.invalid.rawValue == 0)
        #expect(TrustResultType.proceed.rawValue == 1)
        #expect(TrustResultType.deny.rawValue == 3)
        #expect(TrustResultType.unspecified.rawValue == 4)
        #expect(TrustResultType.recoverableTrustFailure.rawValue == 5)
        #expect(TrustResultType.fatalTrustFailure.rawValue == 6)
        #expect(TrustResultType.otherError.rawValue == 7)
        #expect(TrustResultType.allCases.filter(\.isTrusted) == [.proceed, .unspecified])
    }

    @Test func errorCodesMatchSecBase() {
        #expect(TrustCheck.temporalValidity.errorCode.rawValue == -67818)
        #expect(TrustCheck.sslHostname.errorCode.rawValue == -67602)
        #expect(TrustCheck.anchorTrusted.errorCode.rawValue == -67843)
        #expect(TrustCheck.missingIntermediate.errorCode.rawValue == -25318)
        #expect(TrustCheck.revocation.errorCode.rawValue == -67820)
        #expect(TrustCheck.usageConstraints.errorCode.rawValue == -67654)
        #expect(TrustErrorCode(name: "errSecHostNameMismatch") == .errSecHostNameMismatch)
        #expect(TrustErrorCode.errSecNotTrusted.name == "errSecNotTrusted")
    }
}
