/// Stored countdowns by id, kept in a few bytes each: what a store keeps of
/// every countdown a process holds (the Redis store's copy of what it last
/// saw, the SQLite store's read-ahead of the whole table).
///
/// A `[CountdownID: StoredCountdown]` costs a 152-byte bucket per entry (a
/// 136-byte record beside its key) at a load of 3/8 to 3/4, and a heap block
/// for each boot id of 36 bytes: 300-400 bytes a countdown, freed one by one.
/// Here an entry is a 56-byte row of numbers in one contiguous array, its id
/// beside it (16 bytes, the only copy), and a 4-byte slot of an index by the
/// id's hash at most half full (8-16 bytes a row; a `[CountdownID: Int32]`
/// index, which keeps the id in its buckets again, took 20-byte buckets at a
/// load of 3/8 to 3/4: 27-53 bytes a row); the boot ids, which nearly every
/// record shares, are kept once; titles and end actions, which few countdowns have,
/// beside the rows that have them. Nothing a record holds is dropped: what
/// goes in comes out equal (`StoredCountdownTableTests`).
///
/// An entry may be *marked*: it then stays when its record goes (set to nil),
/// as an entry without a record. The Redis store marks the ids this process
/// used (what it writes back when the server lost its data); the read-ahead
/// marks every id it read, so that a record handed out is told apart from an
/// id that was not stored.
public struct StoredCountdownTable: Sendable {
    /// A record without its strings: 48 bytes of numbers, the boot id's number
    /// in `bootIDs` and the flags.
    struct Row: Sendable {
        var wallDeadline: Nanoseconds
        var pausedRemaining: Nanoseconds
        var every: Nanoseconds
        var total: Nanoseconds
        var bootDeadline: Nanoseconds
        var updatedAt: Nanoseconds
        /// 0: no boot id; n: `bootIDs[n - 1]`.
        var boot: UInt32
        var flags: Flags
    }

    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        static let hasRecord = Flags(rawValue: 1 << 0)
        static let marked = Flags(rawValue: 1 << 1)
        static let paused = Flags(rawValue: 1 << 2)
        static let finished = Flags(rawValue: 1 << 3)
        static let wallKind = Flags(rawValue: 1 << 4)
        static let hasPausedRemaining = Flags(rawValue: 1 << 5)
        static let hasBootDeadline = Flags(rawValue: 1 << 6)
        static let overtime = Flags(rawValue: 1 << 7)
    }

    /// What few records carry: kept beside the row, by row number.
    struct Annotations: Sendable {
        var title: String?
        var actions: [String]
    }

    /// Row numbers by the id's hash, plus one (0: an empty slot): open
    /// addressing, probed linearly, at most half full; the count a power of two.
    private var slots: [Int32] = []
    /// Entries in `slots`.
    private var indexed = 0
    private var rows: [Row] = []
    /// Each row's id (the empty string for a free row), the only copy of it.
    private var ids: [CountdownID] = []
    /// Rows no entry uses, taken again first.
    private var freeRows: [Int32] = []
    private var annotations: [Int32: Annotations] = [:]
    /// Each distinct boot id once; rows name one by its place here, plus one.
    private var bootIDs: [String] = []
    private var bootNumbers: [CountdownID: UInt32] = [:]
    /// Entries that hold a record.
    public private(set) var count = 0

    public init() {}

    /// Makes room for `capacity` entries, so that filling it does not copy the index.
    public mutating func reserveCapacity(_ capacity: Int) {
        if 2 * capacity > slots.count { rehash(slotCount: Self.slotCount(for: capacity)) }
        rows.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
    }

    /// Entries, with a record or marked.
    public var entryCount: Int { indexed }

    /// True when `id` has an entry, with a record or marked.
    public func contains(_ id: CountdownID) -> Bool { find(id).row != nil }

    /// The record of `id`; setting nil removes the record (a marked entry stays).
    public subscript(id: CountdownID) -> StoredCountdown? {
        get {
            guard let row = find(id).row else { return nil }
            return record(id: id.string, row: row)
        }
        set {
            if let newValue {
                store(newValue, under: id)
            } else {
                removeRecord(id)
            }
        }
    }

    /// Marks `id`: its entry stays when its record goes (made without a record if there is none).
    public mutating func mark(_ id: CountdownID) {
        let found = find(id)
        if let row = found.row {
            rows[Int(row)].flags.insert(.marked)
        } else {
            insert(Row(wallDeadline: 0, pausedRemaining: 0, every: 0, total: 0, bootDeadline: 0, updatedAt: 0,
                       boot: 0, flags: .marked), id: id, at: found.slot)
        }
    }

    /// Removes `id`'s entry, marked or not (the Redis store, once the process runs
    /// the countdown: its view replaces the copy).
    public mutating func forget(_ id: CountdownID) {
        let found = find(id)
        guard let number = found.row else { return }
        if rows[Int(number)].flags.contains(.hasRecord) { count -= 1 }
        if !annotations.isEmpty { annotations[number] = nil }
        removeSlot(found.slot)
        rows[Int(number)].flags = []
        ids[Int(number)] = ""
        freeRows.append(number)
    }

    /// The ids marked, in no particular order.
    public var markedIDs: [CountdownID] {
        rows.indices.compactMap { rows[$0].flags.contains(.marked) ? ids[$0] : nil }
    }

    /// Every record, in no particular order.
    public var records: [StoredCountdown] {
        var all: [StoredCountdown] = []
        all.reserveCapacity(count)
        for number in rows.indices where rows[number].flags.contains(.hasRecord) {
            if let record = record(id: ids[number].string, row: Int32(number)) { all.append(record) }
        }
        return all
    }

    /// Puts `records` in place of every record held; marked entries stay, without
    /// a record unless `records` has one for them.
    public mutating func replaceRecords(with records: [CountdownID: StoredCountdown]) {
        let marked = markedIDs
        self = StoredCountdownTable()
        reserveCapacity(Swift.max(records.count, marked.count))
        for id in marked { mark(id) }
        for (id, record) in records { self[id] = record }
    }

    /// The bytes the table's own storage takes, by capacity (what it has
    /// asked for, not what it uses), strings longer than a `String` holds in
    /// place not counted: the figure `cdbench held` reports and a test bounds.
    public var storageBytes: Int {
        slots.capacity * MemoryLayout<Int32>.stride
            + rows.capacity * MemoryLayout<Row>.stride
            + ids.capacity * MemoryLayout<CountdownID>.stride
            + freeRows.capacity * MemoryLayout<Int32>.stride
            + annotations.capacity * (MemoryLayout<Int32>.stride + MemoryLayout<Annotations>.stride)
            + bootNumbers.capacity * (MemoryLayout<CountdownID>.stride + MemoryLayout<UInt32>.stride)
            + bootIDs.capacity * MemoryLayout<String>.stride
    }

    /// The stride of one row (56 bytes).
    public static var rowBytes: Int { MemoryLayout<Row>.stride }

    // MARK: Rows

    private mutating func store(_ record: StoredCountdown, under id: CountdownID) {
        var flags: Flags = [.hasRecord]
        switch record.state {
        case .running: break
        case .paused: flags.insert(.paused)
        case .finished: flags.insert(.finished)
        }
        if record.kind == .wall { flags.insert(.wallKind) }
        if record.pausedRemaining != nil { flags.insert(.hasPausedRemaining) }
        if record.bootDeadline != nil { flags.insert(.hasBootDeadline) }
        if record.overtime { flags.insert(.overtime) }
        var row = Row(wallDeadline: record.wallDeadline, pausedRemaining: record.pausedRemaining ?? 0, every: record.every,
                      total: record.total, bootDeadline: record.bootDeadline ?? 0, updatedAt: record.updatedAt,
                      boot: bootNumber(record.bootID), flags: flags)
        let number: Int32
        let found = find(id)
        if let existing = found.row {
            number = existing
            let before = rows[Int(number)].flags
            if before.contains(.marked) { row.flags.insert(.marked) }
            if !before.contains(.hasRecord) { count += 1 }
            rows[Int(number)] = row
        } else {
            number = insert(row, id: id, at: found.slot)
            count += 1
        }
        if record.title != nil || !record.actions.isEmpty {
            annotations[number] = Annotations(title: record.title, actions: record.actions)
        } else if !annotations.isEmpty {
            annotations[number] = nil
        }
    }

    private mutating func removeRecord(_ id: CountdownID) {
        let found = find(id)
        guard let number = found.row else { return }
        let flags = rows[Int(number)].flags
        if flags.contains(.hasRecord) { count -= 1 }
        if !annotations.isEmpty { annotations[number] = nil }
        if flags.contains(.marked) {
            rows[Int(number)].flags = .marked
        } else {
            removeSlot(found.slot)
            rows[Int(number)].flags = []
            ids[Int(number)] = ""
            freeRows.append(number)
        }
    }

    // MARK: The index

    /// The slot count for `entries`: a power of two, at least twice as many.
    private static func slotCount(for entries: Int) -> Int {
        var count = 16
        while count < 2 * entries { count *= 2 }
        return count
    }

    /// Where `id` is: its slot and row, or the empty slot where it would go (row nil).
    private func find(_ id: CountdownID) -> (slot: Int, row: Int32?) {
        guard !slots.isEmpty else { return (0, nil) }
        let mask = slots.count - 1
        var i = id.hashValue & mask
        while true {
            let entry = slots[i]
            if entry == 0 { return (i, nil) }
            if ids[Int(entry - 1)] == id { return (i, entry - 1) }
            i = (i + 1) & mask
        }
    }

    /// Puts `row` in a row of its own under `id`, whose empty slot `find` gave;
    /// returns the row's number.
    private mutating func insert(_ row: Row, id: CountdownID, at slot: Int) -> Int32 {
        let number: Int32
        if let free = freeRows.popLast() {
            number = free
            rows[Int(free)] = row
            ids[Int(free)] = id
        } else {
            number = Int32(rows.count)
            rows.append(row)
            ids.append(id)
        }
        indexed += 1
        if 2 * indexed > slots.count {
            // Grown: every slot moves, this one with them.
            rehash(slotCount: Self.slotCount(for: indexed))
        } else {
            slots[slot] = number + 1
        }
        return number
    }

    /// Makes the index `slotCount` slots and puts every entry in again (by row).
    private mutating func rehash(slotCount: Int) {
        slots = [Int32](repeating: 0, count: slotCount)
        let mask = slotCount - 1
        for number in rows.indices where !rows[number].flags.isEmpty {
            var i = ids[number].hashValue & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = Int32(number + 1)
        }
    }

    /// Empties `slot`, moving back the entries after it that it kept from their
    /// home slot (linear probing without tombstones).
    private mutating func removeSlot(_ slot: Int) {
        let mask = slots.count - 1
        var hole = slot
        var j = slot
        while true {
            j = (j + 1) & mask
            let entry = slots[j]
            if entry == 0 { break }
            let home = ids[Int(entry - 1)].hashValue & mask
            // The entry stays when its home lies cyclically in (hole, j].
            let stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !stays {
                slots[hole] = entry
                hole = j
            }
        }
        slots[hole] = 0
        indexed -= 1
    }

    private func record(id: String, row number: Int32) -> StoredCountdown? {
        let row = rows[Int(number)]
        guard row.flags.contains(.hasRecord) else { return nil }
        let state: StoredCountdown.State = row.flags.contains(.paused) ? .paused : row.flags.contains(.finished) ? .finished : .running
        let extra = annotations.isEmpty ? nil : annotations[number]
        return StoredCountdown(
            id: id, state: state, kind: row.flags.contains(.wallKind) ? .wall : .duration, wallDeadline: row.wallDeadline,
            pausedRemaining: row.flags.contains(.hasPausedRemaining) ? row.pausedRemaining : nil, every: row.every,
            total: row.total, bootID: row.boot == 0 ? nil : bootIDs[Int(row.boot) - 1],
            bootDeadline: row.flags.contains(.hasBootDeadline) ? row.bootDeadline : nil, updatedAt: row.updatedAt,
            overtime: row.flags.contains(.overtime), title: extra?.title, actions: extra?.actions ?? [])
    }

    /// The number of `bootID` in `bootIDs`, plus one (0 for none), adding it the first time.
    private mutating func bootNumber(_ bootID: String?) -> UInt32 {
        guard let bootID else { return 0 }
        // Nearly every record names the last boot seen: compared before hashing.
        if let last = bootIDs.last, last.sameBytes(as: bootID) { return UInt32(bootIDs.count) }
        // Keyed by bytes, as ids are: two spellings of one text are two boot ids.
        if let number = bootNumbers[CountdownID(bootID)] { return number }
        bootIDs.append(bootID)
        let number = UInt32(bootIDs.count)
        bootNumbers[CountdownID(bootID)] = number
        return number
    }
}
