/// The network budget of one evaluation: at most ``Limits/maxFetchesPerEvaluation`` requests, each within
/// ``Limits/fetchTimeout`` and all within ``Limits/evaluationFetchTimeout``, each body at most
/// ``Limits/maxFetchBytes``; only `http://` URLs, each fetched once. Cached bodies cost nothing.
struct NetworkFetchSession {
    let access: NetworkAccess
    let limits: Limits
    private let deadline: ContinuousClock.Instant
    private(set) var records: [NetworkFetchRecord] = []
    private var requests = 0

    init(access: NetworkAccess, limits: Limits) {
        self.access = access
        self.limits = limits
        self.deadline = ContinuousClock.now.advanced(by: limits.evaluationFetchTimeout)
    }

    /// True when `url` was already asked for in this evaluation.
    func hasFetched(_ url: String) -> Bool { records.contains { $0.url == url } }

    /// The body of `url`, or nil (the reason is recorded).
    mutating func fetch(_ url: String) -> [UInt8]? {
        guard url.lowercased().hasPrefix("http://") else {
            records.append(NetworkFetchRecord(url: url, problem: "not an http:// URL"))
            return nil
        }
        if let body = access.cached(url) {
            records.append(NetworkFetchRecord(url: url, fromCache: true))
            return body
        }
        guard requests < limits.maxFetchesPerEvaluation else {
            records.append(NetworkFetchRecord(url: url, problem: "more than \(limits.maxFetchesPerEvaluation) fetches (Limits.maxFetchesPerEvaluation)"))
            return nil
        }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else {
            records.append(NetworkFetchRecord(url: url, problem: "the evaluation's fetch time is used up (Limits.evaluationFetchTimeout)"))
            return nil
        }
        requests += 1
        do {
            let response = try access.fetcher.fetch(
                url, timeout: min(limits.fetchTimeout, remaining), maximumBytes: limits.maxFetchBytes)
            access.remember(response, for: url)
            records.append(NetworkFetchRecord(url: url))
            return response.body
        } catch {
            records.append(NetworkFetchRecord(url: url, problem: error.message))
            return nil
        }
    }

    /// Marks the last record's use: what the body was found to hold.
    mutating func describeLast(_ outcome: String) {
        guard !records.isEmpty else { return }
        records[records.count - 1].outcome = outcome
    }
}
