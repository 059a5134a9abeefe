/// Stored countdowns by id, kept in a few bytes each: what a store keeps of
/// every countdown a process holds (the Redis store's copy of what it last
/// saw, the SQLite store's read-ahead of the whole table).
///
/// A `[CountdownID: StoredCountdown]` costs a 152-byte bucket per entry (a
/// 136-byte record beside its key) at a load of 3/8 to 3/4, and a heap block
/// for each boot id of 36 bytes: 300-400 bytes a countdown, freed one by one.
/// Here an entry is a 20-byte bucket of an index (id -> row) and a 56-byte row
/// of numbers in one contiguous array; the boot ids, which nearly every record
/// shares, are kept once; titles and end actions, which few countdowns have,
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

    private var index: [CountdownID: Int32] = [:]
    private var rows: [Row] = []
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
        index.reserveCapacity(capacity)
        rows.reserveCapacity(capacity)
    }

    /// Entries, with a record or marked.
    public var entryCount: Int { index.count }

    /// True when `id` has an entry, with a record or marked.
    public func contains(_ id: CountdownID) -> Bool { index[id] != nil }

    /// The record of `id`; setting nil removes the record (a marked entry stays).
    public subscript(id: CountdownID) -> StoredCountdown? {
        get {
            guard let row = index[id] else { return nil }
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
        if let row = index[id] {
            rows[Int(row)].flags.insert(.marked)
        } else {
            let row = newRow(Row(wallDeadline: 0, pausedRemaining: 0, every: 0, total: 0, bootDeadline: 0, updatedAt: 0,
                                 boot: 0, flags: .marked))
            index[id] = row
        }
    }

    /// The ids marked, in no particular order.
    public var markedIDs: [CountdownID] {
        index.compactMap { id, row in rows[Int(row)].flags.contains(.marked) ? id : nil }
    }

    /// Every record, in no particular order.
    public var records: [StoredCountdown] {
        var all: [StoredCountdown] = []
        all.reserveCapacity(count)
        for (id, row) in index where rows[Int(row)].flags.contains(.hasRecord) {
            if let record = record(id: id.string, row: row) { all.append(record) }
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
        index.capacity * (MemoryLayout<CountdownID>.stride + MemoryLayout<Int32>.stride)
            + rows.capacity * MemoryLayout<Row>.stride
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
        if let existing = index[id] {
            number = existing
            let before = rows[Int(number)].flags
            if before.contains(.marked) { row.flags.insert(.marked) }
            if !before.contains(.hasRecord) { count += 1 }
            rows[Int(number)] = row
        } else {
            number = newRow(row)
            index[id] = number
            count += 1
        }
        if record.title != nil || !record.actions.isEmpty {
            annotations[number] = Annotations(title: record.title, actions: record.actions)
        } else if !annotations.isEmpty {
            annotations[number] = nil
        }
    }

    private mutating func removeRecord(_ id: CountdownID) {
        guard let number = index[id] else { return }
        let flags = rows[Int(number)].flags
        if flags.contains(.hasRecord) { count -= 1 }
        if !annotations.isEmpty { annotations[number] = nil }
        if flags.contains(.marked) {
            rows[Int(number)].flags = .marked
        } else {
            index[id] = nil
            freeRows.append(number)
        }
    }

    private mutating func newRow(_ row: Row) -> Int32 {
        if let free = freeRows.popLast() {
            rows[Int(free)] = row
            return free
        }
        rows.append(row)
        return Int32(rows.count - 1)
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
