/// What a cached report is found by: every input of the evaluation (``EvaluationInputs``) except the verify date,
/// which the report's validity window covers (``ResultValidityWindow``), and the backend's name.
///
/// Equality is exact: certificates, anchors, CRLs and settings compare by their full DER (`Array` equality
/// short-cuts to a pointer comparison when callers reuse the same values, the common case). Hashing is the
/// synthesized one over every input: a certificate contributes the hash of its whole DER, computed once per
/// certificate and kept, so a 150-certificate anchor set costs 150 integers; a CRL contributes the hash of all of
/// its DER (``Swift/Hasher/combine(encoding:)``). An input added to ``EvaluationInputs`` is part of the key.
struct ResultCacheKey: Hashable, Sendable {
    let inputs: EvaluationInputs
    let backend: String

    init(_ evaluation: TrustEvaluation, backend: String) {
        var inputs = evaluation.inputs
        inputs.verifyDate = nil
        self.inputs = inputs
        self.backend = backend
    }
}
