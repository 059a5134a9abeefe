import CountdownCore

/// Which scheduler slots hold a persistent countdown: a bit each. The id itself
/// is not kept here: it is the handle's (its user value `CD_UV_ID`), read through
/// the slot's handle reference when the store needs it (`StoreBinding.persistentID`).
/// Issue 53: a `String?` per slot was 16 bytes (32 after doubling) per countdown
/// held, a second copy of every id beside Lua's.
///
/// An array, not a set: a fetch or a persistent start sets one bit and its end
/// clears it, with no hashing of the id. Finding a countdown by id goes through
/// the host's id table (ids.c), which every countdown with an id is in.
struct PersistentIDs {
    private var words: [UInt64] = []
    /// How many slots are marked.
    private(set) var count = 0

    /// Whether `slot` holds a persistent countdown.
    subscript(slot: Int32) -> Bool {
        let index = Int(slot)
        return index >> 6 < words.count && words[index >> 6] & (1 << UInt64(index & 63)) != 0
    }

    /// Marks `slot`, where a persistent countdown starts.
    mutating func set(slot: Int32) {
        let index = Int(slot)
        if index >> 6 >= words.count {
            // Grown by doubling: a script starting many persistent countdowns
            // copies each word a few times at most.
            words.append(contentsOf: repeatElement(0, count: max(index >> 6 + 1, 2 * words.count) - words.count))
        }
        let bit: UInt64 = 1 << UInt64(index & 63)
        if words[index >> 6] & bit == 0 { count += 1 }
        words[index >> 6] |= bit
    }

    /// Clears `slot`, whose countdown ended; whether it was marked.
    mutating func remove(slot: Int32) -> Bool {
        guard self[slot] else { return false }
        let index = Int(slot)
        words[index >> 6] &= ~(1 << UInt64(index & 63))
        count -= 1
        return true
    }

    /// The bytes of its storage, by capacity.
    var storageBytes: Int { words.capacity * MemoryLayout<UInt64>.stride }
}
