/// TLS alert descriptions by their registered names (RFC 8446 §6, the IANA TLS Alerts registry), so both TLS
/// clients name a server's alert the same way whatever their library calls it.
package enum TLSAlert {
    /// The registered name of each alert description a TLS 1.2 or 1.3 peer may send.
    private static let names: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 22: "record_overflow",
        40: "handshake_failure", 42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked",
        45: "certificate_expired", 46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca",
        49: "access_denied", 50: "decode_error", 51: "decrypt_error", 70: "protocol_version",
        71: "insufficient_security", 80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
        100: "no_renegotiation", 109: "missing_extension", 110: "unsupported_extension", 112: "unrecognized_name",
        113: "bad_certificate_status_response", 115: "unknown_psk_identity", 116: "certificate_required",
        120: "no_application_protocol",
    ]

    /// The reason given for a refusal by this alert, e.g. `the server sent alert unknown_ca`.
    package static func reason(_ description: UInt8) -> String {
        names[description].map { "the server sent alert \($0)" } ?? "the server sent alert \(description)"
    }
}
