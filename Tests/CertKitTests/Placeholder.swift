import Testing

@Test func placeholder_CertKitTests() { #expect(true) }
