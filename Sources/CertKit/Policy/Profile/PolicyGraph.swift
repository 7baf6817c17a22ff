/// What RFC 5280 §6.1 certificate-policy processing reads from one certificate of the path.
package struct PolicyCertificate: Sendable, Hashable {
    /// certificatePolicies policy OIDs (empty: the extension is absent, or names nothing).
    package var policies: [String]
    /// policyMappings (empty: absent).
    package var mappings: [PolicyMapping]
    /// policyConstraints requireExplicitPolicy.
    package var requireExplicitPolicy: Int?
    /// policyConstraints inhibitPolicyMapping.
    package var inhibitPolicyMapping: Int?
    /// inhibitAnyPolicy.
    package var inhibitAnyPolicy: Int?
    /// Subject and issuer are the same name.
    package var isSelfIssued: Bool

    /// Creates a value.
    package init(
        policies: [String] = [], mappings: [PolicyMapping] = [], requireExplicitPolicy: Int? = nil,
        inhibitPolicyMapping: Int? = nil, inhibitAnyPolicy: Int? = nil, isSelfIssued: Bool = false
    ) {
        self.policies = policies
        self.mappings = mappings
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
        self.inhibitAnyPolicy = inhibitAnyPolicy
        self.isSelfIssued = isSelfIssued
    }

    /// What `certificate` carries (an extension that does not decode counts as absent: it fails on its own).
    package init(_ certificate: Certificate) {
        let extensions = certificate.extensions
        self.init(
            policies: extensions.certificatePolicies, mappings: extensions.policyMappings ?? [],
            requireExplicitPolicy: extensions.policyConstraints?.requireExplicitPolicy,
            inhibitPolicyMapping: extensions.policyConstraints?.inhibitPolicyMapping,
            inhibitAnyPolicy: extensions.inhibitAnyPolicy, isSelfIssued: certificate.isSelfIssued)
    }
}

/// The valid policy graph of RFC 9618 (which replaces RFC 5280's valid_policy_tree; BoringSSL and Go use the
/// same): at each depth at most one node per valid_policy, each node linked to all its parents, so its size
/// grows linearly with the policies and mappings of the path where the tree could grow exponentially
/// (CVE-2023-0464). Qualifiers are not kept: certkit never reports them.
///
/// Depth 0 holds the single anyPolicy node of §6.1.2(a); depth `i` the nodes made for certificate `i`. Every node
/// ever made counts against `maxNodes`: going over stops the processing (the caller reports
/// `TrustCheck.resourceLimit`).
package struct PolicyGraph: Sendable, Hashable {
    /// The anyPolicy OID.
    package static let anyPolicy = "2.5.29.32.0"

    /// One node.
    package struct Node: Sendable, Hashable {
        /// valid_policy.
        package var policy: String
        /// expected_policy_set: the policies of the next certificate that this node stands for (its own policy,
        /// or what a policy mapping maps it to), in order, without repeats.
        package var expected: [String]
        /// The indices of its parents in the level above.
        package var parents: [Int]
        /// Deleted by §6.1.4(b)(2) or pruned.
        package var isDeleted = false
    }

    /// The nodes of one depth, and where each valid_policy is.
    package struct Level: Sendable, Hashable {
        /// The nodes, deleted ones included (indices stay stable).
        package var nodes: [Node] = []
        var index: [String: Int] = [:]

        /// The live node whose valid_policy is `policy`.
        package func node(_ policy: String) -> Node? { index[policy].map { nodes[$0] } }

        /// The valid_policy of every live node, in creation order.
        package var policies: [String] { nodes.filter { !$0.isDeleted }.map(\.policy) }

        /// True when no node is live.
        package var isEmpty: Bool { index.isEmpty }

        /// For each policy of an expected_policy_set, the live nodes expecting it, in node order.
        func byExpected() -> [String: [Int]] {
            var table: [String: [Int]] = [:]
            for (offset, node) in nodes.enumerated() where !node.isDeleted {
                for policy in node.expected { table[policy, default: []].append(offset) }
            }
            return table
        }

        mutating func add(_ node: Node) {
            index[node.policy] = nodes.count
            nodes.append(node)
        }

        mutating func delete(_ policy: String) {
            guard let offset = index.removeValue(forKey: policy) else { return }
            nodes[offset].isDeleted = true
        }
    }

    /// Processing stopped: the graph would have more than `maxNodes` nodes.
    package struct TooLarge: Error, Sendable, Hashable {}

    /// Depth 0 (the anyPolicy root) to the deepest depth processed; empty once the graph is NULL.
    package private(set) var levels: [Level]
    /// Nodes made so far, deleted ones included.
    package private(set) var nodeCount = 1
    /// The most nodes the graph may ever have.
    package let maxNodes: Int

    /// §6.1.2(a): one anyPolicy node, expecting anyPolicy.
    package init(maxNodes: Int) {
        var root = Level()
        root.add(Node(policy: Self.anyPolicy, expected: [Self.anyPolicy], parents: []))
        self.levels = [root]
        self.maxNodes = maxNodes
    }

    /// True when the graph is NULL (RFC 5280's empty valid_policy_tree). Nodes above the deepest level only
    /// live through their descendants, so the graph is NULL exactly when its deepest level is empty.
    package var isNull: Bool { levels.last?.isEmpty ?? true }

    /// The valid_policy of each node at the deepest depth: the authorities-constrained policy set (anyPolicy in
    /// it stands for every policy).
    package var validPolicies: [String] { levels.last?.policies ?? [] }

    /// §6.1.3(e): the certificate has no certificatePolicies.
    package mutating func makeNull() { levels = [] }

    /// §6.1.3(d)(1)–(2): the level for a certificate with `policies` (not empty). `anyPolicyAllowed`:
    /// inhibit_anyPolicy > 0, or the certificate is self-issued and not the last. (§6.1.3(d)(3)'s pruning of
    /// childless nodes above changes no later step and no verdict; `pruned()` does it on demand.)
    package mutating func addLevel(policies: [String], anyPolicyAllowed: Bool) throws(TooLarge) {
        guard let previous = levels.last, !previous.isEmpty else { return makeNull() }
        let expecting = previous.byExpected()
        var level = Level()
        var hasAnyPolicy = false
        for policy in policies {
            if policy == Self.anyPolicy { hasAnyPolicy = true; continue }
            guard level.index[policy] == nil else { continue }
            if let parents = expecting[policy] {
                try add(Node(policy: policy, expected: [policy], parents: parents), to: &level)  // (d)(1)(i)
            } else if let root = previous.index[Self.anyPolicy] {
                try add(Node(policy: policy, expected: [policy], parents: [root]), to: &level)  // (d)(1)(ii)
            }
        }
        if hasAnyPolicy && anyPolicyAllowed {
            // (d)(2): every policy some node above expects, that no node of this depth has yet.
            for node in previous.nodes where !node.isDeleted {
                for policy in node.expected where level.index[policy] == nil {
                    try add(Node(policy: policy, expected: [policy], parents: expecting[policy] ?? []), to: &level)
                }
            }
        }
        levels.append(level)
    }

    /// §6.1.4(b) for the certificate of the deepest depth: its `mappings` (pairs naming anyPolicy excluded by
    /// the caller) set the expected policies of the nodes they map, or, when `inhibited` (policy_mapping = 0),
    /// delete those nodes.
    package mutating func applyMappings(_ mappings: [PolicyMapping], inhibited: Bool) throws(TooLarge) {
        guard var level = levels.popLast() else { return }
        defer { levels.append(level) }
        var order: [String] = []
        var subjects: [String: [String]] = [:]
        var seen = Set<PolicyMapping>()  // a repeated pair once (hashing: no mapping count makes this quadratic)
        for mapping in mappings where seen.insert(mapping).inserted {
            if subjects[mapping.issuerDomainPolicy] == nil { order.append(mapping.issuerDomainPolicy) }
            subjects[mapping.issuerDomainPolicy, default: []].append(mapping.subjectDomainPolicy)
        }
        for issuerPolicy in order {
            let mapped = subjects[issuerPolicy]!
            if inhibited {
                level.delete(issuerPolicy)  // (b)(2)
            } else if let offset = level.index[issuerPolicy] {
                level.nodes[offset].expected = mapped  // (b)(1)
            } else if let any = level.index[Self.anyPolicy] {
                // (b)(1): a node for the issuer policy under the anyPolicy node above.
                try add(Node(policy: issuerPolicy, expected: mapped, parents: level.nodes[any].parents), to: &level)
            }
        }
    }

    /// The graph with §6.1.3(d)(3)'s pruning done: every node above the deepest depth without a live child is
    /// deleted, repeatedly.
    package func pruned() -> PolicyGraph {
        var copy = self
        guard copy.levels.count > 1 else { return copy }
        for depth in stride(from: copy.levels.count - 2, through: 0, by: -1) {
            var hasChild = Array(repeating: false, count: copy.levels[depth].nodes.count)
            for child in copy.levels[depth + 1].nodes where !child.isDeleted {
                for parent in child.parents { hasChild[parent] = true }
            }
            for (offset, node) in copy.levels[depth].nodes.enumerated() where !node.isDeleted && !hasChild[offset] {
                copy.levels[depth].delete(node.policy)
            }
        }
        return copy
    }

    private mutating func add(_ node: Node, to level: inout Level) throws(TooLarge) {
        guard nodeCount < maxNodes else { throw TooLarge() }
        nodeCount += 1
        level.add(node)
    }
}

/// RFC 5280 §6.1.2–§6.1.5 certificate-policy processing over the valid `PolicyGraph`, with
/// user-initial-policy-set = {anyPolicy}: the path is valid unless explicit_policy reaches 0 while the graph is
/// NULL. The three other inputs of §6.1.1 are `Options`.
package enum PolicyProcessing {
    /// §6.1.1 (e), (f), (g): all false by default, as for trustd, OpenSSL and GnuTLS by default.
    package struct Options: Sendable, Hashable {
        /// initial-explicit-policy: a valid policy is required from the start.
        package var initialExplicitPolicy = false
        /// initial-policy-mapping-inhibit: policy mapping is not permitted.
        package var initialPolicyMappingInhibit = false
        /// initial-any-policy-inhibit: anyPolicy is not processed.
        package var initialAnyPolicyInhibit = false

        /// Creates options.
        package init(
            initialExplicitPolicy: Bool = false, initialPolicyMappingInhibit: Bool = false,
            initialAnyPolicyInhibit: Bool = false
        ) {
            self.initialExplicitPolicy = initialExplicitPolicy
            self.initialPolicyMappingInhibit = initialPolicyMappingInhibit
            self.initialAnyPolicyInhibit = initialAnyPolicyInhibit
        }
    }

    /// How processing ended.
    package enum Outcome: Sendable, Hashable {
        /// The path is valid; `explicitPolicy` is the final explicit_policy.
        case valid(explicitPolicy: Int)
        /// §6.1.3(f) or §6.1.5(g): explicit_policy is 0 and the graph is NULL at certificate `position`.
        case noValidPolicy(position: Int)
        /// The graph would exceed its node bound while processing certificate `position`.
        case graphTooLarge(position: Int)
    }

    /// The outcome and the graph as it stood at the end.
    package struct Result: Sendable, Hashable {
        package var outcome: Outcome
        package var graph: PolicyGraph
    }

    /// True when processing `certificates` can fail at all: explicit_policy can only reach 0 through a
    /// requireExplicitPolicy (or initial-explicit-policy), so without one the graph need not be built.
    package static func canFail(_ certificates: [PolicyCertificate], options: Options = Options()) -> Bool {
        options.initialExplicitPolicy || certificates.contains { $0.requireExplicitPolicy != nil }
    }

    /// Processes `certificates`, the path without its trust anchor in RFC 5280's order: the certificate the
    /// anchor issued first (position 0), the leaf last. Policy mappings naming anyPolicy (which §6.1.4(a)
    /// rejects; the caller reports them) are left out.
    package static func process(
        _ certificates: [PolicyCertificate], options: Options = Options(), maxNodes: Int
    ) -> Result {
        let n = certificates.count
        var explicitPolicy = options.initialExplicitPolicy ? 0 : n + 1
        var policyMapping = options.initialPolicyMappingInhibit ? 0 : n + 1
        var inhibitAnyPolicy = options.initialAnyPolicyInhibit ? 0 : n + 1
        var graph = PolicyGraph(maxNodes: maxNodes)
        for (position, certificate) in certificates.enumerated() {
            let isLast = position == n - 1
            do throws(PolicyGraph.TooLarge) {
                // §6.1.3(d), (e).
                if certificate.policies.isEmpty {
                    graph.makeNull()
                } else if !graph.isNull {
                    try graph.addLevel(
                        policies: certificate.policies,
                        anyPolicyAllowed: inhibitAnyPolicy > 0 || (!isLast && certificate.isSelfIssued))
                }
                // §6.1.3(f).
                if explicitPolicy == 0 && graph.isNull { return Result(outcome: .noValidPolicy(position: position), graph: graph) }
                if isLast { break }
                // §6.1.4(b).
                let mappings = certificate.mappings.filter {
                    $0.issuerDomainPolicy != PolicyGraph.anyPolicy && $0.subjectDomainPolicy != PolicyGraph.anyPolicy
                }
                if !mappings.isEmpty && !graph.isNull { try graph.applyMappings(mappings, inhibited: policyMapping == 0) }
            } catch {
                return Result(outcome: .graphTooLarge(position: position), graph: graph)
            }
            // §6.1.4(h), (i), (j).
            if !certificate.isSelfIssued {
                explicitPolicy = max(0, explicitPolicy - 1)
                policyMapping = max(0, policyMapping - 1)
                inhibitAnyPolicy = max(0, inhibitAnyPolicy - 1)
            }
            if let require = certificate.requireExplicitPolicy { explicitPolicy = min(explicitPolicy, require) }
            if let inhibit = certificate.inhibitPolicyMapping { policyMapping = min(policyMapping, inhibit) }
            if let inhibit = certificate.inhibitAnyPolicy { inhibitAnyPolicy = min(inhibitAnyPolicy, inhibit) }
        }
        guard n > 0 else { return Result(outcome: .valid(explicitPolicy: explicitPolicy), graph: graph) }
        // §6.1.5(a), (b), then (g): with user-initial-policy-set {anyPolicy} the intersection is the graph itself.
        explicitPolicy = max(0, explicitPolicy - 1)
        if certificates[n - 1].requireExplicitPolicy == 0 { explicitPolicy = 0 }
        if explicitPolicy == 0 && graph.isNull { return Result(outcome: .noValidPolicy(position: n - 1), graph: graph) }
        return Result(outcome: .valid(explicitPolicy: explicitPolicy), graph: graph)
    }
}
