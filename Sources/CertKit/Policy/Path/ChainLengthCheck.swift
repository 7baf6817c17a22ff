/// `ChainLength` (`TrustRules/maxDepth`): the path may have at most `maxDepth` intermediates. The leaf and the
/// anchor are not counted, so `maxDepth == 0` means the leaf must be issued by an anchor (or be one); on a path
/// that does not reach an anchor every certificate after the leaf counts.
package struct ChainLengthCheck: PathCheck {
    package init() {}

    /// The number of intermediates on `path`.
    package static func intermediates(on path: CandidatePath) -> Int {
        max(0, path.certificates.count - (path.endsAtAnchor ? 2 : 1))
    }

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        if Self.intermediates(on: context.path) > context.maxDepth { findings.record(TrustRules.maxDepth, at: 0) }
    }
}
