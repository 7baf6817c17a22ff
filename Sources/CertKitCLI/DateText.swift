import Foundation

/// ISO 8601 dates as `--at` reads them (certkit writes dates with the core's ``ISO8601Text``).
enum DateText {
    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// Parses `2030-06-01`, `2030-06-01T12:00`, `2030-06-01T12:00:00Z`, `2030-06-01T12:00:00.5+02:00`,
    /// `...+0200`; a date or time without a zone is UTC. Nil when malformed or out of range.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.take("-"), let month = scanner.number(digits: 2),
              scanner.take("-"), let day = scanner.number(digits: 2) else { return nil }
        var hour = 0, minute = 0, second = 0, offsetSeconds = 0
        if scanner.take("T") || scanner.take("t") || scanner.take(" ") {
            guard let h = scanner.number(digits: 2), scanner.take(":"), let m = scanner.number(digits: 2) else {
                return nil
            }
            hour = h
            minute = m
            if scanner.take(":") {
                guard let s = scanner.number(digits: 2) else { return nil }
                second = s
                if scanner.take(".") {
                    guard scanner.skipDigits() > 0 else { return nil }
                }
            }
            if scanner.take("Z") || scanner.take("z") {
                // UTC
            } else if let sign = scanner.sign() {
                guard let oh = scanner.number(digits: 2) else { return nil }
                _ = scanner.take(":")
                guard let om = scanner.number(digits: 2), oh <= 23, om <= 59 else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
            }
        }
        guard scanner.atEnd, (1...12).contains(month), (1...31).contains(day), hour <= 23, minute <= 59,
              second <= 60 else { return nil }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = utcCalendar.date(from: components),
              utcCalendar.component(.day, from: date) == day || second == 60 else { return nil }
        return date.addingTimeInterval(TimeInterval(-offsetSeconds))
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard position < bytes.count, let ascii = character.asciiValue, bytes[position] == ascii else {
                return false
            }
            position += 1
            return true
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }

        mutating func number(digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            position += digits
            return value
        }

        mutating func skipDigits() -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            return position - start
        }
    }
}
