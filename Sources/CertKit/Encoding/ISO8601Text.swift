import Foundation

/// Dates as certkit writes them, in one place, through Foundation's ISO 8601 format styles (UTC, whole seconds):
/// the day in trust messages (`expired on 2020-01-01`) and the timestamps of the command line's text and JSON.
package enum ISO8601Text {
    /// `2030-06-01T00:00:00Z`.
    package static func timestamp(_ date: Date) -> String { date.formatted(timestampStyle) }

    /// `2030-06-01`.
    package static func day(_ date: Date) -> String { date.formatted(dayStyle) }

    private static let timestampStyle = Date.ISO8601FormatStyle()
    private static let dayStyle = Date.ISO8601FormatStyle().year().month().day()
}
