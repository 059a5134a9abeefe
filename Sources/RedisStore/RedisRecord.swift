import CountdownCore

/// How a countdown is kept in Redis: one field of the hash `cdscript:countdowns`,
/// its value `1|state|kind|wall|paused|every|total|updated` with integer
/// nanoseconds in decimal, and a 9th field `overtime` on an overtime countdown
/// only: every other record stays in the 8 fields that builds before it read
/// (those refuse a 9-field record as unreadable, naming it; they never change it). Instants are on the Redis server's clock (`TIME`);
/// there is no boot id, since the processes that share it run on many machines.
/// The server never does arithmetic on them (a script compares whole values), so
/// nothing is rounded to Lua's doubles.
enum RedisRecord {
    /// The 9th field of an overtime countdown's record.
    static let overtimeField = "overtime"

    static func encode(_ c: StoredCountdown) -> String {
        var fields = ["1", c.state.rawValue, c.kind.rawValue, String(c.wallDeadline), c.pausedRemaining.map { String($0) } ?? "",
                      String(c.every), String(c.total), String(c.updatedAt)]
        if c.overtime { fields.append(overtimeField) }
        return fields.joined(separator: "|")
    }

    /// Decodes a record and checks it against `CountdownRange`, the validation the
    /// SQLite store uses too. The error names the field (by the SQLite column's
    /// name), its value and why it cannot be used; nothing traps.
    static func read(id: String, _ text: String) throws(StoredValueError) -> StoredCountdown {
        // Split on the bytes, into views of `text`: splitting into Characters and copying
        // each field into a String of its own was a fifth of a bulk fetch's CPU.
        let f = text.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map { Substring($0) }
        guard f.count == 8 || f.count == 9 else {
            throw StoredValueError(field: "record", value: text, reason: "expected 8 or 9 fields separated by '|', got \(f.count)")
        }
        guard f.count == 8 || f[8] == overtimeField else {
            throw StoredValueError(field: "overtime", value: String(f[8]), reason: "expected '\(overtimeField)' or no 9th field")
        }
        guard f[0] == "1" else { throw StoredValueError(field: "version", value: String(f[0]), reason: "expected 1") }
        guard let state = StoredCountdown.State(rawValue: String(f[1])) else {
            throw StoredValueError(field: "state", value: String(f[1]), reason: "expected running, paused or finished")
        }
        guard let kind = StoredCountdown.Kind(rawValue: String(f[2])) else {
            throw StoredValueError(field: "kind", value: String(f[2]), reason: "expected duration or wall")
        }
        func integer(_ field: String, _ text: Substring) throws(StoredValueError) -> Int64 {
            guard let n = Int64(text) else { throw StoredValueError(field: field, value: String(text), reason: "expected an integer (nanoseconds)") }
            return n
        }
        let record = StoredCountdown(
            id: id, state: state, kind: kind, wallDeadline: try integer("wall_deadline", f[3]),
            pausedRemaining: f[4].isEmpty ? nil : try integer("paused_remaining", f[4]),
            every: try integer("every", f[5]), total: try integer("total", f[6]),
            bootID: nil, bootDeadline: nil, updatedAt: try integer("updated_at", f[7]), overtime: f.count == 9)
        try CountdownRange.check(record)
        return record
    }

    /// The record, or nil when it cannot be read (see `read`).
    static func decode(id: String, _ text: String) -> StoredCountdown? {
        try? read(id: id, text)
    }

    /// `record` moved between the local wall clock and the server's (`shift` = server - local).
    static func shifted(_ record: StoredCountdown, by shift: Nanoseconds) -> StoredCountdown {
        var r = record
        r.wallDeadline += shift
        r.updatedAt += shift
        r.bootID = nil
        r.bootDeadline = nil
        return r
    }

    /// Re-applies a change made while the server was out of reach (`before` ->
    /// `after`, made at `instant` on the server clock) to what the server holds now,
    /// so that changes made meanwhile by other processes are kept and added to.
    static func rebase(before: StoredCountdown?, after: StoredCountdown?, onto current: StoredCountdown?, at instant: Nanoseconds) -> StoredCountdown? {
        guard let after else { return nil }
        guard let before, var r = current, r.state != .finished || after.state == .finished else { return after }
        let now = StoreInstant(boot: 0, wall: instant, bootID: nil)
        if after.every != before.every { r.every = after.every }
        switch (before.state, after.state) {
        case (.running, .running), (.paused, .paused):
            let delta = after.total - before.total
            if delta != 0 { r.append(delta, at: now) }
        case (.running, .paused):
            r.pause(at: now)
        case (.paused, .running):
            r.resume(at: now)
            r.bootID = nil
            r.bootDeadline = nil
        case (_, .finished):
            r.finish(at: now)
        default:
            return after
        }
        return r
    }
}
