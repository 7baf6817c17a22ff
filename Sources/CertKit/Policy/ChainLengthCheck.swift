/// `ChainLength`: the path, anchor included, may hold at most `maxDepth` certificates.
public struct ChainLengthCheck: PathCheck {
    public init() {}

    public func check(_ context: PathContext, into findings: inout PathFindings) {
        if context.certificates.count > context.maxDepth { findings.record(.chainLength, at: 0) }
    }
}
