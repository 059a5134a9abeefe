import CountdownCore

/// `cdscript check` on Redis: every record of the countdown hash and every end
/// claim key read as the store reads them, in pieces (`HSCAN`/`SCAN` with a
/// `COUNT`, then one pipelined read per piece), so that no command holds the
/// server for more than about a millisecond. Through a connection of its own:
/// nothing is written (no epoch set, no queued change sent).
extension RedisCountdownStore {
    /// The end claim keys' prefixes (`RedisEndClaim.swift`), and how each is read.
    private enum ClaimKey: CaseIterable {
        case end, lease, token

        var prefix: String {
            let prefixes = RedisCountdownStore.endClaimKeys("")
            switch self {
            case .end: return prefixes[0]
            case .lease: return prefixes[1]
            case .token: return prefixes[2]
            }
        }

        /// Matches every claim key (`cdscript:end*`).
        static var pattern: String { String(ClaimKey.end.prefix.dropLast()) + "*" }

        static func of(_ key: String) -> (ClaimKey, id: String)? {
            for kind in allCases where key.hasPrefix(kind.prefix) { return (kind, String(key.dropFirst(kind.prefix.count))) }
            return nil
        }
    }

    /// Checks the store. Throws `RedisError` when the server cannot be reached or
    /// answers with an error; what is wrong in the data is in the report.
    public func check() throws -> StoreCheckReport {
        var report = StoreCheckReport(location: url.description)
        let connection = try connectAndPing(timeout: timeoutMilliseconds)
        defer { connection.close() }
        var ids: Set<String> = []
        try scanAll(connection) { id, _, unreadable in
            // HSCAN hands a field on again when the hash is resized meanwhile: each once.
            guard ids.insert(id).inserted else { return }
            report.countdowns += 1
            if let unreadable {
                report.problems.append(.init(subject: "countdown \(unreadable.shownID)", id: id,
                                             problem: unreadable.problem + "; " + unreadable.removal))
            }
        }
        var orphans: Set<String> = []
        try scanKeys(connection, matching: ClaimKey.pattern) { keys in
            let claims = keys.compactMap { key in ClaimKey.of(key).map { (key, $0.0, $0.id) } }
            for (key, kind, _) in claims {
                try connection.send(kind == .end ? ["HMGET", key, "end", "changed", "done", "status"] : ["GET", key])
            }
            for (key, kind, id) in claims {
                let reply = try connection.reply()
                if !ids.contains(id) { orphans.insert(id) }
                if let problem = Self.claimProblem(kind, reply) {
                    report.problems.append(.init(subject: "end claim key \(VisibleText.escaped(key).debugDescription)", id: id, problem: problem))
                }
            }
        }
        if !orphans.isEmpty {
            report.notes.append("\(orphans.count) end claim\(orphans.count == 1 ? " is" : "s are") kept for countdowns no longer stored (by design: a later countdown under the same id claims over it)")
        }
        return report
    }

    /// What is wrong with one end claim key's value, as the claim scripts read it.
    private static func claimProblem(_ kind: ClaimKey, _ reply: RedisReply) -> String? {
        switch (kind, reply) {
        case (_, .error(let e)):
            return "cannot be read: \(e)"
        case (.end, .array(let fields)) where fields.count == 4:
            // Every bad field, not the first only. A field that is absent is not
            // damage: a claim written by an earlier build has no `changed`.
            var problems: [String] = []
            for (field, value) in zip(["end", "changed"], fields) {
                if let text = value.string, Int64(text) == nil { problems.append("field \(field) = \(text): expected an integer (nanoseconds)") }
            }
            if let done = fields[2].string, done != "0", done != "1" { problems.append("field done = \(done): expected 0 or 1") }
            if let status = fields[3].string, Int32(status) == nil { problems.append("field status = \(status): expected an exit status") }
            return problems.isEmpty ? nil : problems.joined(separator: "; ")
        case (.lease, .string(let holder)):
            let parts = holder.split(separator: " ")
            return parts.count >= 2 && Int64(parts[parts.count - 1]) != nil ? nil : "value \(holder.debugDescription): expected 'owner token'"
        case (.token, .string(let token)):
            // Below 2^53: the claim script's numbers (Lua 5.1 doubles) are exact there.
            return Int64(token).map { $0 >= 0 && $0 < 1 << 53 } == true ? nil : "value \(token.debugDescription): expected a whole number below 2^53"
        case (_, .null):
            // Gone between the scan and the read (a lease that expired).
            return nil
        default:
            return "unexpected value \(reply)"
        }
    }

    /// Every key matching `pattern`, a piece at a time (`SCAN`, never `KEYS`).
    private func scanKeys(_ connection: RedisConnection, matching pattern: String, _ body: ([String]) throws -> Void) throws {
        // SCAN may return a key more than once.
        var seen: Set<String> = []
        try forEachSlice(connection, command: .keys(matching: pattern)) { items in
            let keys = items.compactMap(\.string).filter { seen.insert($0).inserted }
            if !keys.isEmpty { try body(keys) }
        }
    }
}
