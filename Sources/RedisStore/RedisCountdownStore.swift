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
///   process last saw, changes are queued (merged per countdown, `PendingChanges`),
///   and once `reconnect()` (driven by the change feed's backoff timer) succeeds,
///   `replayPending` sends them in slices between passes of the run loop.
/// - Idempotence without a key per change: each process's writes carry a sequence
///   number, and the server keeps the last one applied per process
///   (`cdscript:writer:<uuid>`, expiring 24 hours after its last change), so a
///   change whose reply was lost is applied at most once when it is sent again.
/// - A server that comes back without its data (restarted without persistence,
///   flushed) is told apart from a cancel by `cdscript:epoch`, a random value set
///   once: when it changed, the countdowns this process used are reported lost
///   (`lostIDs`, exit 6 for a run) and written back where the server has none.
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
    /// Countdowns this process loaded, saved or changed itself (not only listed):
    /// what it writes back when the server lost its data.
    private var used: Set<CountdownID> = []
    /// Changes not on the server yet, in order.
    private(set) var pending = PendingChanges()
    /// This store's writer id and the sequence number of its last write.
    private let writerKey = "cdscript:writer:" + UUID().uuidString
    private var sequence = 0
    /// The server's `cdscript:epoch` as this process first saw it.
    private var epoch: String?
    /// Countdowns the server lost (it came back without them), in the order found.
    public private(set) var lostIDs: [String] = []
    /// Changes sent since the last reconnection (for the notice once all are sent).
    private var replayedSinceReconnect = 0
    /// Counts the memory queued changes take against the run's limit (negative
    /// gives it back); false refuses. A run wires it to `--memory-limit`.
    public var chargeMemory: (Int) -> Bool = { _ in true }
    /// Called when the connection is lost (the feed arms its reconnect timer).
    var onLost: () -> Void = {}
    /// Notices for the user (lost, reconnected); stderr in the command line.
    public var notice: (String) -> Void = { _ in }

    static let hashKey = "cdscript:countdowns"
    /// How many times one change is computed again because another process wrote
    /// the same countdown in between, before the store gives up on it. Each
    /// conflict means some writer succeeded, so the store as a whole moves on;
    /// a thousand in a row is a fight between writers, and waiting on it for ever
    /// would hang the run.
    static let maximumAttempts = 1000
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
    /// Changes not yet on the server (counting merged ones).
    public var pendingCount: Int { pending.changeCount }
    /// Countdowns with changes not yet on the server.
    public var pendingCountdowns: Int { pending.entryCount }
    /// Answers come from what this process last saw, and changes are queued:
    /// offline, and also while queued changes are still being sent (the server
    /// does not hold them yet, and a change must follow those made before it).
    private var answersFromCache: Bool { connection == nil || !pending.isEmpty }

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
        used.insert(CountdownID(id))
        if let connection, !answersFromCache {
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

    /// Every stored countdown; fails on the first record that cannot be read
    /// (`listing()` reads past such records).
    public func list() throws -> [StoredCountdown] {
        let listing = try listing()
        if let first = listing.unreadable.first { throw first }
        return listing.countdowns
    }

    /// The countdowns that can be read, and the records that cannot, each named.
    /// Offline: what this process last saw.
    public func listing() throws -> StoredCountdownListing {
        let shift = try shiftForOperation()
        if let connection, !answersFromCache {
            do {
                guard case .array(let items) = try connection.command(["HGETALL", Self.hashKey]) else {
                    throw RedisError(connectionLost: false, message: "\(url): unexpected reply to HGETALL")
                }
                var all: [CountdownID: StoredCountdown] = [:]
                var unreadable: [UnreadableCountdown] = []
                var i = 0
                while i + 1 < items.count {
                    if let id = items[i].string {
                        do {
                            if let r = try decode(id: id, items[i + 1]) { all[CountdownID(id)] = r }
                        } catch let error as UnreadableCountdown {
                            unreadable.append(error)
                        }
                    }
                    i += 2
                }
                cache = all
                listedAll = true
                return StoredCountdownListing(
                    countdowns: all.values.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) },
                    unreadable: unreadable.sorted { $0.id.precedesInBytes($1.id) })
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
            }
        }
        return StoredCountdownListing(countdowns: cache.values.sorted { $0.id.precedesInBytes($1.id) }.map { RedisRecord.shifted($0, by: -shift) })
    }

    public func save(_ countdown: StoredCountdown) throws {
        try checkStorable(countdown)
        let shift = try shiftForOperation()
        let record = RedisRecord.shifted(countdown, by: shift)
        used.insert(CountdownID(countdown.id))
        try write(id: countdown.id, before: cache[CountdownID(countdown.id)], after: record, unconditional: true)
    }

    @discardableResult
    public func delete(id: String) throws -> Bool {
        _ = try shiftForOperation()
        used.insert(CountdownID(id))
        if answersFromCache {
            let existed = cache[CountdownID(id)] != nil
            try write(id: id, before: cache[CountdownID(id)], after: nil, unconditional: true)
            return existed
        }
        return try write(id: id, before: nil, after: nil, unconditional: true)
    }

    @discardableResult
    public func modify<Result>(id: String, _ change: (inout StoredCountdown?) -> Result) throws -> Result {
        var shift = try shiftForOperation()
        used.insert(CountdownID(id))
        var attempts = 0
        while true {
            attempts += 1
            // Read what is stored (or, offline, what was last seen), change it in local terms.
            let before: StoredCountdown?
            if let connection, !answersFromCache {
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
            if let record { try checkStorable(record) }
            if try write(id: id, before: before, after: after, unconditional: false) { return result }
            if attempts >= Self.maximumAttempts {
                throw RedisError(connectionLost: false, message: "\(url): gave up changing '\(id)' after \(Self.maximumAttempts) conflicting writes")
            }
            shift = clock.wallShift()
        }
    }

    /// Removes every countdown that has finished by `now`; returns their ids.
    /// Records that cannot be read are left (see `removeUnreadable`).
    public func removeFinished(at now: StoreInstant) throws -> [String] {
        var removed: [String] = []
        for record in try listing().countdowns where record.effectiveState(at: now) == .finished {
            let gone = try modify(id: record.id) { stored -> Bool in
                guard let s = stored, s.effectiveState(at: now) == .finished else { return false }
                stored = nil
                return true
            }
            if gone { removed.append(record.id) }
        }
        return removed
    }

    /// Removes every record that cannot be read as a countdown; returns what was removed.
    public func removeUnreadable() throws -> [UnreadableCountdown] {
        var removed: [UnreadableCountdown] = []
        for record in try listing().unreadable where try delete(id: record.id) {
            removed.append(record)
        }
        return removed
    }

    /// Nothing is written that could not be read back.
    private func checkStorable(_ countdown: StoredCountdown) throws {
        do {
            try CountdownRange.check(countdown)
        } catch {
            throw RedisError(connectionLost: false, message: "\(url): the countdown '\(VisibleText.escaped(countdown.id))' cannot be stored: \(error)")
        }
    }

    // MARK: Writing

    /// One change through the script: `before` is what it was computed from
    /// (ignored when `unconditional`). Returns false when the stored value was not
    /// `before` (another process changed it: compute again). Offline, or while
    /// queued changes are being sent, the change is queued and counts as made.
    @discardableResult
    private func write(id: String, before: StoredCountdown?, after: StoredCountdown?, unconditional: Bool) throws -> Bool {
        if answersFromCache {
            guard everConnected else { throw RedisError(connectionLost: true, message: "cannot reach \(url)") }
            try queue(PendingChange(id: id, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional))
            return true
        }
        let sequence = nextSequence()
        do {
            let outcome = try runScript(id: id, sequence: sequence, expected: before, new: after, unconditional: unconditional)
            switch outcome {
            case .written(let existed, _), .alreadyApplied(let existed, _):
                cache[CountdownID(id)] = after
                return unconditional ? existed : true
            case .conflict(let current):
                cache[CountdownID(id)] = current
                return false
            }
        } catch let error as RedisError where error.connectionLost {
            // The reply was lost, not necessarily the change: replaying it under the
            // same sequence number applies it at most once.
            wentOffline(error)
            try queue(PendingChange(id: id, before: before, after: after, instant: clock.serverNow(), unconditional: unconditional, sequence: sequence))
            return true
        }
    }

    private func queue(_ change: PendingChange) throws(RedisError) {
        var change = change
        if !pending.merges(change) {
            // Merged changes take no more room: the queue grows with the countdowns
            // changed, and those are bounded by the memory limit.
            change.charged = chargeMemory(PendingChanges.entryBytes(change))
            // A change whose reply was lost is kept whatever the limit: it may be
            // on the server already.
            guard change.charged || change.sequence != nil else {
                throw RedisError(connectionLost: false, message: "\(url) is out of reach, and keeping more changes for it would pass the memory limit (--memory-limit); changes to more countdowns are not kept")
            }
        }
        pending.append(change)
        cache[CountdownID(change.id)] = change.after
    }

    private func dropFirstPending() {
        if let first = pending.first, first.charged { _ = chargeMemory(-PendingChanges.entryBytes(first)) }
        pending.removeFirst()
    }

    private func dropAllPending() {
        while !pending.isEmpty { dropFirstPending() }
    }

    private func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    enum ScriptOutcome {
        /// `existed`: something was stored before, readable or not (removing an
        /// unreadable record by its id is how it is cleaned up); `previous`: what
        /// it was, when readable.
        case written(existed: Bool, previous: StoredCountdown?)
        case alreadyApplied(existed: Bool, previous: StoredCountdown?)
        case conflict(current: StoredCountdown?)
    }

    func runScript(id: String, sequence: Int, expected: StoredCountdown?, new: StoredCountdown?, unconditional: Bool) throws -> ScriptOutcome {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        let keysAndArgs = ["2", Self.hashKey, writerKey, id, expected.map(RedisRecord.encode) ?? "",
                           new.map(RedisRecord.encode) ?? "", channel, unconditional ? "any" : "compare", String(sequence)]
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
        let existed = parts[1].string.map { !$0.isEmpty } ?? false
        switch status {
        case 1: return .written(existed: existed, previous: try? decode(id: id, parts[1]))
        case 2: return .alreadyApplied(existed: existed, previous: try? decode(id: id, parts[1]))
        default: return .conflict(current: try decode(id: id, parts[1]))
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
        let seen = try currentEpoch(made)
        if epoch == nil { epoch = seen }
        connection = made
        everConnected = true
        if seen != epoch {
            epoch = seen
            serverLostItsData()
        }
        return made
    }

    static let epochKey = "cdscript:epoch"

    /// The server's epoch: a random value set by the first cdscript that finds
    /// none. It changes only when the server lost its data.
    private func currentEpoch(_ connection: RedisConnection) throws(RedisError) -> String {
        // Two commands, not SET ... NX GET: that needs Redis 7.
        _ = try connection.command(["SET", Self.epochKey, UUID().uuidString, "NX"])
        guard case .string(let value) = try connection.command(["GET", Self.epochKey]) else {
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply to GET \(Self.epochKey)")
        }
        return value
    }

    /// The server came back without what it held: the countdowns this process
    /// used are not cancelled, they were lost. Each is reported, keeps running
    /// here, and is written back (unless another process already did); what was
    /// queued for it is in the record written back.
    private func serverLostItsData() {
        scriptSHA = nil
        dropAllPending()
        replayedSinceReconnect = 0
        for id in used.sorted() {
            guard let record = cache[id], record.state != .finished else { continue }
            lostIDs.append(id.string)
            notice("cdscript: the store lost countdown \(id.string.debugDescription) (\(url) came back without its data); it runs on here and is written back")
            var restore = PendingChange(id: id.string, before: nil, after: record, instant: clock.serverNow(),
                                        unconditional: false, restore: true)
            // Kept whatever the limit: the server has nothing else of it.
            restore.charged = chargeMemory(PendingChanges.entryBytes(restore))
            pending.append(restore)
        }
    }

    private func wentOffline(_ error: RedisError) {
        connection?.close()
        connection = nil
        scriptSHA = nil
        notice("cdscript: \(error.message); countdowns run on here, changes are kept and sent when \(url) is back")
        onLost()
    }

    /// Tries once to connect again. The queued changes are sent by `replayPending`.
    /// Returns true when connected.
    public func reconnect() -> Bool {
        guard connection == nil else { return true }
        replayedSinceReconnect = 0
        do {
            try live(timeout: reconnectTimeoutMilliseconds)
        } catch {
            return false
        }
        return true
    }

    /// Sends queued changes, oldest first, for about `milliseconds` (a run loop
    /// calls it between passes, so ticks, redraws and keys go on during a long
    /// replay). Returns true when connected with nothing left queued.
    public func replayPending(forMilliseconds milliseconds: Int) -> Bool {
        let start = BootClock().bootNow()
        let budget = Nanoseconds(milliseconds) * 1_000_000
        while let change = pending.first, connection != nil {
            do {
                try replay(change)
            } catch let error as RedisError where error.connectionLost {
                wentOffline(error)
                return false
            } catch {
                notice("cdscript: could not apply a change to '\(change.id)' made while \(url) was out of reach: \(error)")
            }
            replayedSinceReconnect += change.count
            dropFirstPending()
            if BootClock().bootNow() - start >= budget { break }
        }
        guard connection != nil, pending.isEmpty else { return false }
        if replayedSinceReconnect > 0 {
            notice("cdscript: \(url) is back; \(replayedSinceReconnect) change\(replayedSinceReconnect == 1 ? "" : "s") made meanwhile applied")
            replayedSinceReconnect = 0
        }
        return true
    }

    /// At the end of a run: connects if needed and sends what is queued for at
    /// most `milliseconds`. Returns true when nothing is left unsent.
    public func flush(withinMilliseconds milliseconds: Int) -> Bool {
        guard !pending.isEmpty else { return true }
        guard reconnect() else { return false }
        return replayPending(forMilliseconds: milliseconds)
    }

    private func replay(_ change: PendingChange) throws {
        guard let connection else { throw RedisError(connectionLost: true, message: "\(url): not connected") }
        // A change whose reply was lost is sent under its own sequence number first.
        var sequence = change.sequence
        // First guess: the server holds what the change was computed from (one
        // round trip per change); a conflict returns what it holds instead.
        var current = change.before
        var known = false
        var attempts = 0
        while attempts < Self.maximumAttempts {
            attempts += 1
            if change.restore, known, current != nil {
                // Written back (or started again) by another process meanwhile.
                cache[CountdownID(change.id)] = current
                return
            }
            let target = change.unconditional || current == change.before ? change.after
                : RedisRecord.rebase(before: change.before, after: change.after, onto: current, at: change.instant)
            let keysAndArgs = ["2", Self.hashKey, writerKey, change.id, current.map(RedisRecord.encode) ?? "",
                               target.map(RedisRecord.encode) ?? "", channel, change.unconditional ? "any" : "compare",
                               String(sequence ?? nextSequence())]
            sequence = nil
            switch try evaluate(keysAndArgs, connection: connection, id: change.id) {
            case .written:
                cache[CountdownID(change.id)] = target
                return
            case .alreadyApplied(_, let stored):
                cache[CountdownID(change.id)] = stored
                return
            case .conflict(let stored):
                current = stored
                known = true
            }
        }
    }

    private func decode(id: String, _ reply: RedisReply) throws -> StoredCountdown? {
        switch reply {
        case .null: return nil
        case .string(let s) where s.isEmpty: return nil
        case .string(let s):
            do {
                return try RedisRecord.read(id: id, s)
            } catch {
                throw UnreadableCountdown(id: id, location: url.description, problem: "field \(error)")
            }
        case .error(let e): throw RedisError(connectionLost: false, message: "\(url): \(e)")
        default: throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply)")
        }
    }
}

/// The one script every change runs on the server.
enum RedisScripts {
    /// KEYS: the hash, the writer's key. ARGV: id, expected value ("" = none),
    /// new value ("" = remove), channel, mode ("compare", or "any" to replace
    /// whatever is stored), the change's sequence number. Returns {1, previous}
    /// when written, {2, current} when the writer's change with this number (or a
    /// later one) was already applied (a replay after a lost reply), {0, current}
    /// on a conflict. The writer's key holds the last number applied and expires
    /// 24 hours after its last change: one small key per writing process, none
    /// per change.
    static let compareAndSet = """
        local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
        local last = tonumber(redis.call('GET', KEYS[2]) or '0')
        if tonumber(ARGV[6]) <= last then return {2, current} end
        if ARGV[5] == 'compare' and current ~= ARGV[2] then return {0, current} end
        if ARGV[3] == '' then
          if current == '' then return {1, current} end
          redis.call('HDEL', KEYS[1], ARGV[1])
        else
          redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
        end
        redis.call('SET', KEYS[2], ARGV[6], 'EX', 86400)
        redis.call('PUBLISH', ARGV[4], ARGV[1])
        return {1, current}
        """
}
