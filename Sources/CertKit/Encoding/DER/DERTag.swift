/// Identifier octets used by X.509, and helpers to name them in error messages.
enum DERTag {
    static let boolean: UInt8 = 0x01
    static let integer: UInt8 = 0x02
    static let bitString: UInt8 = 0x03
    static let octetString: UInt8 = 0x04
    static let null: UInt8 = 0x05
    static let enumerated: UInt8 = 0x0A
    static let objectIdentifier: UInt8 = 0x06
    static let utf8String: UInt8 = 0x0C
    static let printableString: UInt8 = 0x13
    static let teletexString: UInt8 = 0x14
    static let ia5String: UInt8 = 0x16
    static let utcTime: UInt8 = 0x17
    static let generalizedTime: UInt8 = 0x18
    static let universalString: UInt8 = 0x1C
    static let bmpString: UInt8 = 0x1E
    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31

    /// Context-specific, constructed `[n]`.
    static func contextConstructed(_ number: UInt8) -> UInt8 { 0xA0 | number }
    /// Context-specific, primitive `[n]`.
    static func contextPrimitive(_ number: UInt8) -> UInt8 { 0x80 | number }

    /// A short human name for a tag, e.g. `SEQUENCE` or `[0]`.
    static func describe(_ tag: UInt8) -> String {
        switch tag {
        case boolean: return "BOOLEAN"
        case integer: return "INTEGER"
        case bitString: return "BIT STRING"
        case octetString: return "OCTET STRING"
        case null: return "NULL"
        case objectIdentifier: return "OBJECT IDENTIFIER"
        case utcTime: return "UTCTime"
        case generalizedTime: return "GeneralizedTime"
        case sequence: return "SEQUENCE"
        case set: return "SET"
        default:
            if tag & 0xC0 == 0x80 { return "[\(tag & 0x1F)]" }
            return "0x" + Hex.encode([tag])
        }
    }
}
