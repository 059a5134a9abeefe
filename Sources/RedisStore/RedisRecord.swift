import CountdownCore

/// How a countdown is kept in Redis: one field of the hash `cdscript:countdowns`,
/// its value `1|state|kind|wall|paused|every|total|updated` with integer
/// nanoseconds in decimal, then, only on a countdown that has them and in this
/// order, tagged fields: `overtime` on an overtime countdown, `title=TEXT` (the
/// title with `%` and `|` written `%25` and `%7C`) and `actions=a,b` (the end
/// actions' names). Every other record stays in the 8 fields that builds before
/// them read (those refuse a longer record as unreadable, naming it; they never
/// change it). Instants are on the Redis server's clock (`TIME`);
/// there is no boot id, since the processes that share it run on many machines.
/// The server never does arithmetic on them (a script compares whole values), so
/// nothing is rounded to Lua's doubles.
enum RedisRecord {
    /// The 9th field of an overtime countdown's record.
    static let overtimeField = "overtime"
    /// The tag of the title's field.
    static let titleTag = "title="
    /// The tag of the actions' field.
    static let actionsTag = "actions="

    static func encode(_ c: StoredCountdown) -> String {
        // Appended into one string: an array of fields joined cost 9,000
        // instructions a record (1,000,000 created at once write 1,000,000).
        var text = "1|"
        text.reserveCapacity(96)
        text += c.state.rawValue
        text += "|"
        text += c.kind.rawValue
        text += "|"
        text += String(c.wallDeadline)
        text += "|"
        if let paused = c.pausedRemaining { text += String(paused) }
        text += "|"
        text += String(c.every)
        text += "|"
        text += String(c.total)
        text += "|"
        text += String(c.updatedAt)
        if c.overtime { text += "|" + overtimeField }
        if let title = c.title { text += "|" + titleTag + escapedTitle(title) }
        if !c.actions.isEmpty { text += "|" + actionsTag + CountdownAnnotations.encodeActions(c.actions) }
        return text
    }

    /// Decodes a record and checks it against `CountdownRange`, the validation the
    /// SQLite store uses too. The error names the field (by the SQLite column's
    /// name), its value and why it cannot be used; nothing traps.
    static func read(id: String, _ text: String) throws(StoredValueError) -> StoredCountdown {
        // Split on the bytes, into views of `text`: splitting into Characters and copying
        // each field into a String of its own was a fifth of a bulk fetch's CPU.
        let f = text.utf8.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map { Substring($0) }
        guard f.count >= 8 && f.count <= 11 else {
            throw StoredValueError(field: "record", value: text, reason: "expected 8 to 11 fields separated by '|', got \(f.count)")
        }
        // The tagged fields, each at most once and in their order.
        var overtime = false, title: String?, actions: [String] = []
        var next = 0
        for extra in f.dropFirst(8) {
            if next < 1, extra == overtimeField {
                (overtime, next) = (true, 1)
            } else if next < 2, extra.hasPrefix(titleTag) {
                title = try unescapedTitle(extra.dropFirst(titleTag.count))
                next = 2
            } else if next < 3, extra.hasPrefix(actionsTag) {
                actions = CountdownAnnotations.decodeActions(String(extra.dropFirst(actionsTag.count)))
                next = 3
            } else {
                throw StoredValueError(field: "record", value: String(extra),
                                       reason: "expected '\(overtimeField)', '\(titleTag)...' or '\(actionsTag)...', in that order, each once, after the 8th field")
            }
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
            bootID: nil, bootDeadline: nil, updatedAt: try integer("updated_at", f[7]), overtime: overtime,
            title: title, actions: actions)
        try CountdownRange.check(record)
        return record
    }

    /// `title` with the two characters the record gives a meaning escaped: `|`
    /// separates fields, `%` starts an escape.
    static func escapedTitle(_ title: String) -> String {
        guard title.contains(where: { $0 == "%" || $0 == "|" }) else { return title }
        var out = ""
        for scalar in title.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "|": out += "%7C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The title `escapedTitle` wrote; any other `%` sequence is refused.
    static func unescapedTitle(_ text: Substring) throws(StoredValueError) -> String {
        guard text.contains("%") else { return String(text) }
        var out = ""
        var rest = text.unicodeScalars[...]
        while let scalar = rest.first {
            rest = rest.dropFirst()
            guard scalar == "%" else {
                out.unicodeScalars.append(scalar)
                continue
            }
            let code = String(String.UnicodeScalarView(rest.prefix(2)))
            rest = rest.dropFirst(2)
            switch code {
            case "25": out += "%"
            case "7C": out += "|"
            default: throw StoredValueError(field: "title", value: String(text), reason: "expected %25 or %7C after %, found %\(code)")
            }
        }
        return out
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
