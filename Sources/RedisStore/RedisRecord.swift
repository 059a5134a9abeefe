import CountdownCore

/// How a countdown is kept in Redis: one field of the hash `cdscript:countdowns`,
/// its value `1|state|kind|wall|paused|every|total|updated` with integer
/// nanoseconds in decimal. Instants are on the Redis server's clock (`TIME`);
/// there is no boot id, since the processes that share it run on many machines.
/// The server never does arithmetic on them (a script compares whole values), so
/// nothing is rounded to Lua's doubles.
enum RedisRecord {
    static func encode(_ c: StoredCountdown) -> String {
        ["1", c.state.rawValue, c.kind.rawValue, String(c.wallDeadline), c.pausedRemaining.map { String($0) } ?? "",
         String(c.every), String(c.total), String(c.updatedAt)].joined(separator: "|")
    }

    static func decode(id: String, _ text: String) -> StoredCountdown? {
        let f = text.split(separator: "|", omittingEmptySubsequences: false)
        guard f.count == 8, f[0] == "1", let state = StoredCountdown.State(rawValue: String(f[1])),
              let kind = StoredCountdown.Kind(rawValue: String(f[2])), let wall = Int64(f[3]),
              let every = Int64(f[5]), every > 0, let total = Int64(f[6]), let updated = Int64(f[7]) else { return nil }
        let paused = f[4].isEmpty ? nil : Int64(f[4])
        if !f[4].isEmpty && paused == nil { return nil }
        return StoredCountdown(id: id, state: state, kind: kind, wallDeadline: wall, pausedRemaining: paused,
                               every: every, total: total, bootID: nil, bootDeadline: nil, updatedAt: updated)
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
