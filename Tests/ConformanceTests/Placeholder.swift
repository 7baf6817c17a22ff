import Testing

@Test func placeholder_ConformanceTests() { #expect(true) }
