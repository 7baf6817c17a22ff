/// `SerialNumber` (`TrustRules/serialNumber`): every certificate's serial number is positive, not zero and at
/// most 20 octets long (RFC 5280 §4.1.2.2). A 20-octet value whose first bit is set is encoded in 21 octets with
/// a leading zero; that is still 20 octets of value.
package struct SerialNumberCheck: PathCheck {
    package init() {}

    /// Nil when `serial` (the INTEGER's content octets) is acceptable, else why not.
    package static func problem(_ serial: [UInt8]) -> String? {
        guard let first = serial.first else { return "empty" }
        if first & 0x80 != 0 { return "negative" }
        if serial.allSatisfy({ $0 == 0 }) { return "zero" }
        let valueOctets = first == 0 ? serial.count - 1 : serial.count
        return valueOctets > 20 ? "\(valueOctets) octets long" : nil
    }

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard context.enforces(TrustRules.serialNumber) else { return }
        for (index, certificate) in context.certificates.enumerated() {
            if let problem = Self.problem(certificate.serialNumber) {
                findings.record(TrustRules.serialNumber, at: index, note: "serial number is \(problem)")
            }
        }
    }
}
