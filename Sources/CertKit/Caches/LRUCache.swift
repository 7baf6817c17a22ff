/// A bounded least-recently-used map. Not thread-safe by itself: the caches keep it behind a ``CacheLock``.
///
/// Entries live in one array linked into a recency list by index, so lookups, updates and evictions are O(1)
/// and allocation-free once the cache is full.
struct LRUCache<Key: Hashable, Value> {
    fileprivate struct Node {
        var key: Key
        var value: Value
        var newer: Int
        var older: Int
    }

    /// The most entries kept; 0 keeps nothing.
    let capacity: Int
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var newest = -1
    private var oldest = -1

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        slots.reserveCapacity(min(self.capacity, 4_096))
    }

    /// The number of entries.
    var count: Int { nodes.count }

    /// The value for `key`, marking it most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        touch(slot)
        return nodes[slot].value
    }

    /// Stores `value` for `key` as the most recently used entry, evicting the least recently used when full.
    mutating func set(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        if let slot = slots[key] {
            nodes[slot].value = value
            touch(slot)
            return
        }
        let slot: Int
        if nodes.count < capacity {
            slot = nodes.count
            nodes.append(Node(key: key, value: value, newer: -1, older: -1))
        } else {
            slot = oldest
            unlink(slot)
            slots[nodes[slot].key] = nil
            nodes[slot] = Node(key: key, value: value, newer: -1, older: -1)
        }
        slots[key] = slot
        linkAsNewest(slot)
    }

    private mutating func touch(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = -1
        nodes[slot].older = -1
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}

/// A value type: `Sendable` when its keys and values are.
extension LRUCache: Sendable where Key: Sendable, Value: Sendable {}

extension LRUCache.Node: Sendable where Key: Sendable, Value: Sendable {}
