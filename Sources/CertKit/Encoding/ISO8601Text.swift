import Foundation

/// Dates as certkit writes them, in one place (UTC, whole seconds, a fraction dropped): the day in trust messages
/// (`expired on 2020-01-01`) and the timestamps of the command line's text and JSON.
///
/// The years 1583 to 9999 (every date a certificate can hold after the Gregorian calendar's start) are written by
/// hand from the civil calendar; any other date through Foundation's ISO 8601 format styles, which also define
/// the text the hand-written form must match (the tests compare the two).
package enum ISO8601Text {
    /// `2030-06-01T00:00:00Z`.
    package static func timestamp(_ date: Date) -> String {
        guard let fields = fields(date) else { return date.formatted(timestampStyle) }
        var bytes: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 bytes written, 24 available
        return withUnsafeMutableBytes(of: &bytes) { buffer in
            writeDay(fields, to: buffer)
            buffer[10] = UInt8(ascii: "T")
            writeTwoDigits(fields.hour, to: buffer, at: 11)
            buffer[13] = UInt8(ascii: ":")
            writeTwoDigits(fields.minute, to: buffer, at: 14)
            buffer[16] = UInt8(ascii: ":")
            writeTwoDigits(fields.second, to: buffer, at: 17)
            buffer[19] = UInt8(ascii: "Z")
            return String(decoding: buffer.prefix(20), as: UTF8.self)
        }
    }

    /// `2030-06-01`.
    package static func day(_ date: Date) -> String {
        guard let fields = fields(date) else { return date.formatted(dayStyle) }
        var bytes: (UInt64, UInt64) = (0, 0)
        return withUnsafeMutableBytes(of: &bytes) { buffer in
            writeDay(fields, to: buffer)
            return String(decoding: buffer.prefix(10), as: UTF8.self)
        }
    }

    private static let timestampStyle = Date.ISO8601FormatStyle()
    private static let dayStyle = Date.ISO8601FormatStyle().year().month().day()

    /// 1583-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds since 1970.
    private static let firstHandWritten: Int64 = -12_212_553_600
    private static let pastHandWritten: Int64 = 253_402_300_800

    private struct Fields {
        var year, month, day, hour, minute, second: Int
    }

    /// The civil date and time of `date` in UTC (the second rounded down), nil outside the hand-written years.
    private static func fields(_ date: Date) -> Fields? {
        let interval = date.timeIntervalSince1970.rounded(.down)
        guard interval >= Double(firstHandWritten), interval < Double(pastHandWritten) else { return nil }
        let seconds = Int64(interval)
        // Days and the second of the day, rounded towards minus infinity.
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        // Days since 1970-01-01 to the proleptic Gregorian civil date (eras of 400 years starting on March 1).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Fields(
            year: Int(year), month: Int(month), day: Int(day), hour: Int(secondOfDay / 3_600),
            minute: Int(secondOfDay % 3_600 / 60), second: Int(secondOfDay % 60))
    }

    /// `YYYY-MM-DD` in the first ten bytes.
    private static func writeDay(_ fields: Fields, to buffer: UnsafeMutableRawBufferPointer) {
        writeTwoDigits(fields.year / 100, to: buffer, at: 0)
        writeTwoDigits(fields.year % 100, to: buffer, at: 2)
        buffer[4] = UInt8(ascii: "-")
        writeTwoDigits(fields.month, to: buffer, at: 5)
        buffer[7] = UInt8(ascii: "-")
        writeTwoDigits(fields.day, to: buffer, at: 8)
    }

    private static func writeTwoDigits(_ value: Int, to buffer: UnsafeMutableRawBufferPointer, at offset: Int) {
        buffer[offset] = UInt8(ascii: "0") + UInt8(value / 10)
        buffer[offset + 1] = UInt8(ascii: "0") + UInt8(value % 10)
    }
}
