import Foundation

/// UTCTime and GeneralizedTime as RFC 5280 §4.1.2.5 requires: `YYMMDDHHMMSSZ` (YY < 50 → 20YY) and
/// `YYYYMMDDHHMMSSZ`, seconds present, Zulu, no fractions. Computed without Calendar.
enum DERTime {
    /// The date encoded by a time element's contents, or nil when it breaks the profile.
    static func parse<Bytes: RandomAccessCollection<UInt8>>(tag: UInt8, _ digits: Bytes) -> Date? where Bytes.Index == Int {
        let year: Int
        var index: Int
        switch tag {
        case DERTag.utcTime:
            guard digits.count == 13, let yy = number(digits, 0, 2) else { return nil }
            year = yy < 50 ? 2000 + yy : 1900 + yy
            index = 2
        case DERTag.generalizedTime:
            guard digits.count == 15, let yyyy = number(digits, 0, 4) else { return nil }
            year = yyyy
            index = 4
        default:
            return nil
        }
        guard digits[digits.endIndex - 1] == UInt8(ascii: "Z"),
              let month = number(digits, index, 2), let day = number(digits, index + 2, 2),
              let hour = number(digits, index + 4, 2), let minute = number(digits, index + 6, 2),
              let second = number(digits, index + 8, 2)
        else { return nil }
        index += 10
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The decimal number in `digits[start..<start + count]`, offsets counted from the slice's start.
    private static func number<Bytes: RandomAccessCollection<UInt8>>(_ digits: Bytes, _ start: Int, _ count: Int) -> Int? where Bytes.Index == Int {
        guard start >= 0, start + count <= digits.count else { return nil }
        var value = 0
        let base = digits.startIndex
        for i in (base + start)..<(base + start + count) {
            let digit = digits[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
