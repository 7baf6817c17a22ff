import Testing

@Test func conformancePlaceholder() { #expect(Bool(true)) }
