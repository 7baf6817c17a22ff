import Foundation

/// One measured case. `baseline` names the row (by ``id``) it is compared with; `ratio` is this row's time per
/// operation divided by the baseline's (1.10 = 10 % slower than the raw library).
struct BenchmarkRow: Sendable, Encodable {
    var benchmark: String
    var backend: String
    var `case`: String
    var usPerOp: Double
    var opsPerS: Double
    var baseline: String?
    var ratio: Double?

    enum CodingKeys: String, CodingKey {
        case benchmark, backend, `case`, usPerOp = "us_per_op", opsPerS = "ops_per_s", baseline, ratio
    }

    init(benchmark: String, backend: String, case name: String, nanosecondsPerOp: Double) {
        self.benchmark = benchmark
        self.backend = backend
        self.case = name
        self.usPerOp = nanosecondsPerOp / 1_000
        self.opsPerS = nanosecondsPerOp > 0 ? 1e9 / nanosecondsPerOp : 0
    }

    /// The name other rows use to refer to this one: `benchmark/backend/case`.
    var id: String { "\(benchmark)/\(backend)/\(self.case)" }

    /// Explicit nulls for `baseline` and `ratio`, as the JSON format asks.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(benchmark, forKey: .benchmark)
        try container.encode(backend, forKey: .backend)
        try container.encode(self.case, forKey: .case)
        try container.encode(usPerOp, forKey: .usPerOp)
        try container.encode(opsPerS, forKey: .opsPerS)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(ratio, forKey: .ratio)
    }
}

/// Collects rows, links them to their baselines and prints them.
final class BenchmarkReport {
    private(set) var rows: [BenchmarkRow] = []

    /// Adds a row; with `baseline`, the ratio to that earlier row is computed.
    @discardableResult
    func add(_ row: BenchmarkRow, baseline: BenchmarkRow? = nil) -> BenchmarkRow {
        var row = row
        if let baseline {
            row.baseline = baseline.id
            row.ratio = baseline.usPerOp > 0 ? row.usPerOp / baseline.usPerOp : nil
        }
        rows.append(row)
        emit(Self.line(row))
        return row
    }

    static let header = pad("benchmark", 26) + pad("backend", 9) + pad("case", 34) + lpad("µs/op", 12)
        + lpad("ops/s", 12) + lpad("ratio", 8) + "  baseline"

    static func line(_ row: BenchmarkRow) -> String {
        pad(row.benchmark, 26) + pad(row.backend, 9) + pad(row.case, 34)
            + lpad(String(format: "%.2f", row.usPerOp), 12) + lpad(String(format: "%.0f", row.opsPerS), 12)
            + lpad(row.ratio.map { String(format: "%.2f×", $0) } ?? "-", 8) + "  " + (row.baseline ?? "")
    }

    /// Writes the rows as a JSON list.
    func writeJSON(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(rows).write(to: URL(fileURLWithPath: path))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private static func lpad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
