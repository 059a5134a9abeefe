import CountdownCore

/// The ids of the persistent countdowns a host runs, by scheduler slot: what the
/// store hears about when one changes or ends.
///
/// An array, not a dictionary: a fetch or a persistent start sets one entry and
/// its end clears it, with no hashing of the id. Finding a countdown by id goes
/// through the host's id table (ids.c), which every countdown with an id is in.
struct PersistentIDs {
    private var bySlot: [String?] = []
    /// How many entries are set.
    private(set) var count = 0

    /// The id of the persistent countdown in `slot`, if one is there.
    subscript(slot: Int32) -> String? {
        Int(slot) < bySlot.count ? bySlot[Int(slot)] : nil
    }

    /// Records `id` for the persistent countdown that starts in `slot`.
    mutating func set(_ id: String, slot: Int32) {
        let index = Int(slot)
        if index >= bySlot.count {
            // Grown by doubling: a script starting many persistent countdowns
            // copies each entry a few times at most.
            bySlot.append(contentsOf: repeatElement(nil, count: max(index + 1, 2 * bySlot.count) - bySlot.count))
        }
        if bySlot[index] == nil { count += 1 }
        bySlot[index] = id
    }

    /// Clears the entry of `slot`, whose countdown ended, and returns its id.
    mutating func remove(slot: Int32) -> String? {
        let index = Int(slot)
        guard index < bySlot.count, let id = bySlot[index] else { return nil }
        bySlot[index] = nil
        count -= 1
        return id
    }

    /// The bytes of its storage, by capacity (ids longer than a `String` holds
    /// in place not counted; the Lua handle holds the same bytes).
    var storageBytes: Int { bySlot.capacity * MemoryLayout<String?>.stride }

    /// Every id held, in no particular order.
    var all: [String] {
        count == 0 ? [] : bySlot.compactMap { $0 }
    }
}
