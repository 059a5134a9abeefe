#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import Foundation

/// Countdowns kept in Redis, shared by every process on every machine that uses
/// the same server and database.
///
/// - Every change is one script run by the server (`EVALSHA`, see `RedisScripts`):
///   it compares the stored value with the one the change was computed from,
///   writes the new one and publishes the id on the store's channel, atomically.
///   When another process got there first, the change is computed again from
///   what it wrote and retried, so concurrent appends from many machines add up.
/// - Instants are kept on the server's clock (`ServerClock`); this adapter turns
///   them into the local wall clock's terms and back, so the Lua host works as
///   with SQLite and machines whose clocks disagree show the same remaining time.
/// - Unreachable when first used: every operation fails (the run goes on in
///   memory and exits 6). Lost later: operations keep working on what this
///   process last saw, changes are queued, and `reconnect()` (driven by the
///   change feed's backoff timer) applies them in order, each once (an operation
///   id guards a change whose reply was lost), before the feed asks for a resync.
public final class RedisCountdownStore: CountdownPersistence {
    public let url: RedisURL
    let clock: ServerClock
    /// Milliseconds a command may take before the server counts as lost.
    public var timeoutMilliseconds = 1_000
    /// Shorter, for attempts to reconnect from the run loop.
    public var reconnectTimeoutMilliseconds = 300
    var connection: RedisConnection?
    private(set) var everConnected = false
    private var scriptSHA: String?
    /// What this process last saw of each countdown, server terms; the answer while offline.
    private var cache: [CountdownID: StoredCountdown] = [:]
    private var listedAll = false
    /// Changes made while offline, in order.
    private(set) var pending: [PendingChange] = []
    /// Called when the connection is lost (the feed arms its reconnect timer).
    var onLost: () -> Void = {}
    /// Notices for the user (lost, reconnected); stderr in the command line.
    public var notice: (String) -> Void = { _ in }

    struct PendingChange {
        let id: String
        let operation: String
        let before: StoredCountdown?
        let after: StoredCountdown?
        let instant: Nanoseconds
        let unconditional: Bool
    }

    static let hashKey = "cdscript:countdowns"
    var channel: String { "cdscript:changes:\(url.database)" }

    public init(url: RedisURL, clock: TimeSource = BootClock()) {
        self.url = url
        self.clock = ServerClock(local: clock)
        // hiredis writes to its sockets with write(): a server that went away must
        // be an error to handle (EPIPE), not a signal that ends the process. A run
        // already catches SIGPIPE (a handler that does nothing, which children do not
        // inherit); only a process that left it at its default ignores it here.
        var current = sigaction()
        if sigaction(SIGPIPE, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
            signal(SIGPIPE, SIG_IGN)
        }
    }

    /// The server went away (the subscriber connection saw it): the command
    /// connection is dead too, so go offline now rather than on the next write.
    func markLost(_ reason: String) {
        guard connection != nil else { return }
        wentOffline(RedisError(connectionLost: true, message: reason))
    }

    /// True while changes wait for the server.
    public var isOffline: Bool { everConnected && connection == nil }
    /// Changes not yet on the server.
    public var pendingCount: Int { pending.count }

    /// Connects now (the commands do, to fail early with exit 6).
    public func connect() throws(RedisError) {
        _ = try live(timeout: timeoutMilliseconds)
    }

    /// The instant stored countdowns are read at, in local wall terms.
    public func now(boot: Nanoseconds, wall: Nanoseconds) -> StoreInstant {
        StoreInstant(boot: boot, wall: wall, bootID: nil)
    }

    // MARK: CountdownPersistence

    public func load(id: String) throws -> StoredCountdown? {
        let shift = try shiftForOperation()
        if let connection {
            do {
                let reply = try connection.command(["HGET", Self.hashKey, id])
                let record = try decode(id: id, reply)
                cache[CountdownID(id)] = record
                return record.map { RedisRecord.shifted($0, by: -shift) }
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
            }
        }
        return cache[CountdownID(id)].map { RedisRecord.shifted($0, by: -shift) }
    }

    public func list() throws -> [StoredCountdown] {
        let shift = try shiftForOperation()
        if let connection {
            do {
                guard case .array(let items) = try connection.command(["HGETALL", Self.hashKey]) else {
                    throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HGETALL")
                }
                var all: [CountdownID: StoredCountdown] = [:]
                var i = 0
                while i + 1 < items.count {
                    if let id = items[i].string, let r = try decode(id: id, items[i + 1]) { all[CountdownID(id)] = r }
                    i += 2
                }
                cache = all
                listedAll = true
                return all.values.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) }
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
            }
        }
        return cache.values.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) }
    }

    public func save(_ countdown: StoredCountdown) throws {
        let shift = try shiftForOperation()
        let record = RedisRecord.shifted(countdown, by: shift)
        try write(id: countdown.id, before: cache[CountdownID(countdown.id)], after: record, unconditional: true)
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        _ = try shiftForOperation()
        if connection == nil {
            let existed = cache[CountdownID(id)] != nil
            try write(id: id, before: cache[CountdownID(id)], after: nil, unconditional: true)
            return existed
        }
        return try write(id: id, before: nil, after: nil, unconditional: true)
    }

    @discardableResult
    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        var shift = try shiftForOperation()
        var attempts = 0
        while true {
            attempts += 1
            // Read what is stored (or, offline, what was last seen), change it in local terms.
            let before: StoredCountdown?
            if let connection {
                do {
                    before = try decode(id: id, try connection.command(["HGET", Self.hashKey, id]))
                } catch let error as RedisError where error.connectionLost {
                    wentOffline(error)
                    continue
                }
            } else {
                before = cache[CountdownID(id)]
            }
            var record = before.map { RedisRecord.shifted($0, by: -shift) }
            let result = change(&record)
            let after = record.map { RedisRecord.shifted($0, by: shift) }
            if after == before { return result }
            do {
                if try write(id: id, before: before, after: after, unconditional: false) { return result }
            } catch let error as RedisError where !error.connectionLost && attempts < 1000 {
                throw error
            }
            if attempts >= 1000 { throw RedisError(connectionLost: false, message: "\(url): gave up changing '\(id)' after 1000 conflicting writes") }
            shift = clock.wallShift()
        }
    }

    /// Removes every countdown that has finished by `now`; returns their ids.
    public func removeFinished(at now: StoreInstant) throws -> [String] {
        var removed: [String] = []
        for record in try list() where record.effectiveState(at: now) == .finished {
            let gone = try modify(id: record.id) { stored -> Bool in
                guard let s = stored, s.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if gone { removed.append(record.id) }
        }
        return removed
    }

    // MARK: Writing

    /// One change through the script: `before` is what it was computed from
    /// (ignored when `unconditional`). Returns false when the stored value was not
    /// `before` (another process changed it: compute again). Offline, the change is
    /// queued and counts as made.
    @discardableResult
    private func write(id: String, before: StoredCountdown?, after: StoredCountdown?, unconditional: Bool) throws -> Bool {
        let operation = UUID().uuidString
        if connection == nil {
            guard everConnected else { throw RedisError(connectionLost: true, message: "cannot reach \(url)") }
            queue(PendingChange(id: id, operation: operation, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional))
            return true
        }
        do {
            let outcome = try runScript(id: id, operation: operation, expected: before, new: after, unconditional: unconditional)
            switch outcome {
            case .written(let previous), .alreadyApplied(let previous):
                cache[CountdownID(id)] = after
                return unconditional ? previous != nil : true
            case .conflict(let current):
                cache[CountdownID(id)] = current
                return false
            }
        } catch let error as RedisError where error.connectionLost {
            // The reply was lost, not necessarily the change: replaying it under the
            // same operation id applies it at most once.
            wentOffline(error)
            queue(PendingChange(id: id, operation: operation, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional))
            return true
        }
    }

    private func queue(_ change: PendingChange) {
        pending.append(change)
        cache[CountdownID(change.id)] = change.after
    }

    enum ScriptOutcome {
        case written(previous: StoredCountdown?)
        case alreadyApplied(previous: StoredCountdown?)
        case conflict(current: StoredCountdown?)
    }

    private func runScript(id: String, operation: String, expected: StoredCountdown?, new: StoredCountdown?, unconditional: Bool) throws -> ScriptOutcome {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        let keysAndArgs = ["2", Self.hashKey, "cdscript:op:" + operation, id, expected.map(RedisRecord.encode) ?? "",
                           new.map(RedisRecord.encode) ?? "", channel, unconditional ? "any" : "compare"]
        return try evaluate(keysAndArgs, connection: connection, id: id)
    }

    private func evaluate(_ keysAndArgs: [String], connection: RedisConnection, id: String) throws -> ScriptOutcome {
        if scriptSHA == nil {
            scriptSHA = try connection.command(["SCRIPT", "LOAD", RedisScripts.compareAndSet]).string
        }
        var reply = try connection.command(["EVALSHA", scriptSHA ?? ""] + keysAndArgs)
        if case .error(let e) = reply, e.hasPrefix("NOSCRIPT") {
            // A restarted server forgot its scripts: EVAL sends it again.
            reply = try connection.command(["EVAL", RedisScripts.compareAndSet] + keysAndArgs)
            scriptSHA = nil
        }
        guard case .array(let parts) = reply, parts.count == 2, case .integer(let status) = parts[0] else {
            if case .error(let e) = reply { throw RedisError(connectionLost: false, message: "\(url): \(e)") }
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply)")
        }
        let other = try decode(id: id, parts[1])
        switch status {
        case 1: return .written(previous: other)
        case 2: return .alreadyApplied(previous: other)
        default: return .conflict(current: other)
        }
    }

    // MARK: Connection

    /// The server-minus-local shift for an operation; connects (first use) or
    /// measures the clock again when it is stale.
    private func shiftForOperation() throws -> Nanoseconds {
        if connection == nil && !everConnected {
            _ = try live(timeout: timeoutMilliseconds)
        }
        if let connection, clock.isStale {
            do {
                try clock.measure(connection)
            } catch {
                if !error.connectionLost { throw error }
                wentOffline(error)
            }
        }
        return clock.wallShift()
    }

    @discardableResult
    private func live(timeout: Int) throws(RedisError) -> RedisConnection {
        if let connection { return connection }
        let made = try RedisConnection(url, timeoutMilliseconds: timeout)
        if case .error(let e) = try made.command(["PING"]) {
            throw RedisError(connectionLost: false, message: "\(url): \(e)")
        }
        made.setTimeout(milliseconds: timeoutMilliseconds)
        try clock.measure(made)
        connection = made
        everConnected = true
        return made
    }

    private func wentOffline(_ error: RedisError) {
        connection?.close()
        connection = nil
        scriptSHA = nil
        notice("cdscript: \(error.message); countdowns run on here, changes are kept and sent when \(url) is back")
        onLost()
    }

    /// Tries once to connect again; on success sends the queued changes, in order.
    /// Returns true when connected with nothing left queued.
    public func reconnect() -> Bool {
        guard connection == nil else { return true }
        do {
            try live(timeout: reconnectTimeoutMilliseconds)
        } catch {
            return false
        }
        let sent = pending.count
        while let change = pending.first, connection != nil {
            do {
                try replay(change)
                pending.removeFirst()
            } catch let error as RedisError where error.connectionLost {
                return false
            } catch {
                notice("cdscript: could not apply a change to '\(change.id)' made while \(url) was out of reach: \(error)")
                pending.removeFirst()
            }
        }
        guard connection != nil else { return false }
        if sent > 0 { notice("cdscript: \(url) is back; \(sent) change\(sent == 1 ? "" : "s") made meanwhile applied") }
        return true
    }

    private func replay(_ change: PendingChange) throws {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        var attempts = 0
        while attempts < 1000 {
            attempts += 1
            let current = try decode(id: change.id, try connection.command(["HGET", Self.hashKey, change.id]))
            let target = change.unconditional ? change.after
                : current == change.before ? change.after
                : RedisRecord.rebase(before: change.before, after: change.after, onto: current, at: change.instant)
            let keysAndArgs = ["2", Self.hashKey, "cdscript:op:" + change.operation, change.id,
                               current.map(RedisRecord.encode) ?? "", target.map(RedisRecord.encode) ?? "", channel, "compare"]
            switch try evaluate(keysAndArgs, connection: connection, id: change.id) {
            case .written, .alreadyApplied:
                cache[CountdownID(change.id)] = target
                return
            case .conflict:
                continue
            }
        }
    }

    private func decode(id: String, _ reply: RedisReply) throws -> StoredCountdown? {
        switch reply {
        case .null: return nil
        case .string(let s) where s.isEmpty: return nil
        case .string(let s):
            guard let r = RedisRecord.decode(id: id, s) else {
                throw RedisError(connectionLost: false, message: "\(url): the countdown '\(id)' is stored in a form this cdscript does not know; it was left as it is")
            }
            return r
        case .error(let e): throw RedisError(connectionLost: false, message: "\(url): \(e)")
        default: throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply)")
        }
    }
}

/// The one script every change runs on the server.
enum RedisScripts {
    /// KEYS: the hash, the operation's mark. ARGV: id, expected value ("" = none),
    /// new value ("" = remove), channel, mode ("compare", or "any" to replace
    /// whatever is stored). Returns {1, previous} when written, {2, previous}
    /// when this operation was already applied (a replay), {0, current} on a conflict.
    static let compareAndSet = """
        local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
        if redis.call('EXISTS', KEYS[2]) == 1 then return {2, current} end
        if ARGV[5] == 'compare' and current ~= ARGV[2] then return {0, current} end
        if ARGV[3] == '' then
          if current == '' then return {1, current} end
          redis.call('HDEL', KEYS[1], ARGV[1])
        else
          redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
        end
        redis.call('SET', KEYS[2], '1', 'EX', 86400)
        redis.call('PUBLISH', ARGV[4], ARGV[1])
        return {1, current}
        """
}
