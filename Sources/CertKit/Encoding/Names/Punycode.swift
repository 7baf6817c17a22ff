/// Punycode (RFC 3492) encoding, for turning U-labels into A-labels (`xn--…`).
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The A-label of `label`: itself when it is ASCII, else `xn--` and its Punycode encoding; nil when it cannot
    /// be encoded (overflow). No IDNA mapping or normalization is applied: `label` must already be in the form
    /// to encode (as the Public Suffix List's entries are).
    static func aLabel(_ label: Substring) -> String? {
        if label.unicodeScalars.allSatisfy(\.isASCII) { return String(label) }
        guard let encoded = encode(Array(label.unicodeScalars.map(\.value))) else { return nil }
        return "xn--" + encoded
    }

    /// The Punycode encoding of `input` code points.
    static func encode(_ input: [UInt32]) -> String? {
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = UInt32(initialN), delta = 0, bias = initialBias
        while handled < input.count {
            guard let next = input.filter({ $0 >= n }).min() else { return nil }
            let (scaled, overflow) = Int(next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += scaled
            n = next
            for codePoint in input {
                if codePoint < n { delta += 1 }
                if codePoint == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? 97 + value : 22 + value)))
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
