/// SPKI SHA-256 pinning: when pins are given, the leaf or some CA in the path must match one of them (digests
/// from the backend's library, ``PathContext/spkiDigests``);
/// otherwise `LeafSPKISHA256` is recorded on the leaf.
package struct PinCheck: PathCheck {
    package init() {}

    package func check(_ context: PathContext, into findings: inout PathFindings) {
        guard !context.pins.isEmpty else { return }
        let wanted = Set(context.pins.map(\.digest))
        if !context.spkiDigests.contains(where: { wanted.contains($0) }) {
            findings.record(TrustRules.pin, at: 0)
        }
    }
}
