import Foundation

/// The per-connection results as one table with the issue's target ratios, printed after the rows.
final class ConnectionSummary {
    /// One workload on one backend (µs per chain; scaling = one caller's time over the 2-thread time per chain).
    struct Line {
        var workload: String
        var backend: String
        var links: Int
        var floor = 0.0
        var rawPrepared = 0.0
        var rawParse = 0.0
        var pyca: Double?
        var freshAudit = 0.0
        var freshCoreOnly = 0.0
        var warmAudit = 0.0
        var warmCoreOnly = 0.0
        var scalingAudit = 0.0
        var scalingCoreOnly = 0.0
        var scalingRaw = 0.0
    }

    private(set) var lines: [Line] = []
    /// Bundle decode, µs per certificate: certkit's runs and pyca's.
    var bundleRuns: [Double] = []
    var pycaBundle: Double?

    func add(_ line: Line) { lines.append(line) }

    /// Markdown tables: µs per chain, then the ratios the targets name.
    func render() -> [String] {
        var out: [String] = []
        if !lines.isEmpty { out += connectionTables() }
        if !bundleRuns.isEmpty {
            let low = bundleRuns.min()!, high = bundleRuns.max()!
            let median = Measurement.median(bundleRuns)
            out += ["", String(format: "bundle decode (CertificateBundle.decode, 1000 certificates): median %.2f µs/certificate over %d runs, spread (max-min)/median %.0f%%",
                               median, bundleRuns.count, (high - low) / median * 100)]
            if let pycaBundle {
                out.append(String(format: "pyca load_pem_x509_certificates: %.2f µs/certificate; certkit/pyca %.2f× (target ≤ 0.5×)", pycaBundle, median / pycaBundle))
            }
        }
        return out
    }

    private func connectionTables() -> [String] {
        var out = ["", "per-connection summary (µs per chain; audit = --audit, core = the default (core alone))", ""]
        out.append("| workload | backend | floor | raw C pre-parsed | raw C parse | pyca parse+verify | fresh audit | fresh core | warm audit | warm core |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for line in lines {
            out.append("| \(line.workload) | \(line.backend) | \(f(line.floor)) | \(f(line.rawPrepared)) | \(f(line.rawParse)) | "
                + "\(line.pyca.map(f) ?? "–") | \(f(line.freshAudit)) | \(f(line.freshCoreOnly)) | "
                + "\(f(line.warmAudit)) | \(f(line.warmCoreOnly)) |")
        }
        out += ["", "| workload | backend | fresh/floor (audit, core) ≤2.0 | fresh/pyca (audit, core) <1 | warm/floor (audit, core) ≤1.2 | 2-thread scaling (audit, core; raw C) ≥1.8 | fresh/plain RSA (audit, core) ≤1.3 |"]
        out.append("|---|---|---|---|---|---|---|")
        for line in lines {
            let plain = lines.first { $0.backend == line.backend && $0.workload.hasSuffix("rsa") }
            let wide = line.workload == "wide-pool" && plain != nil
            out.append("| \(line.workload) | \(line.backend) | \(r(line.freshAudit, line.floor)), \(r(line.freshCoreOnly, line.floor)) | "
                + "\(line.pyca.map { "\(r(line.freshAudit, $0)), \(r(line.freshCoreOnly, $0))" } ?? "–") | "
                + "\(r(line.warmAudit, line.floor)), \(r(line.warmCoreOnly, line.floor)) | "
                + String(format: "%.2f×, %.2f×; %.2f×", line.scalingAudit, line.scalingCoreOnly, line.scalingRaw) + " | "
                + (wide ? "\(r(line.freshAudit, plain!.freshAudit)), \(r(line.freshCoreOnly, plain!.freshCoreOnly))" : "–") + " |")
        }
        return out
    }

    private func f(_ value: Double) -> String { String(format: "%.0f", value) }
    private func r(_ value: Double, _ base: Double) -> String { base > 0 ? String(format: "%.2f×", value / base) : "–" }
}
