#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore
import EventLoop

/// `cdscript serve`'s end-action runner: follows every stored countdown that
/// names end actions and runs them once per end, across every `serve` and every
/// script that follows the store, through the store's end claims (the same
/// `EndClaiming` calls and rules a script's `on_end_action` goes through:
/// docs/stores.md, "One end, one action").
///
/// One thread, one `poll`: the change feed's descriptors, one boot-clock timer
/// armed at the earliest thing to do (an end, a lease to renew, a claim to ask
/// again), and the signal pipe. Nothing is polled while nothing is due.
///
/// - At an end it records the end (marks the record finished) and claims it; the
///   winner runs the actions (commands as children, the built-ins at once),
///   renews its lease every third of it while a command runs, and marks the end
///   done when all have exited. A process that finds the end held asks again
///   when the lease would pass (at most every 0.5 s), and takes it over then.
/// - An end that passed while no serve ran is taken when serve starts if it
///   passed at most `catchUp` before; older ones are left (said in the log).
/// - SIGHUP reloads the action names (`reload`), SIGTERM/SIGINT stop it: no new
///   end is claimed, commands already running are waited for and their ends
///   marked done; a second SIGTERM/SIGINT stops at once, leaving those ends
///   unmarked, to be taken over by another serve after the lease.
public final class EndActionRunner {
    public struct Configuration {
        /// How long a claimant holds an end before another may take it over.
        public var lease: Nanoseconds = 30 * Time.nanosecondsPerSecond
        /// How old an end found at start may be and still run.
        public var catchUp: Nanoseconds = 600 * Time.nanosecondsPerSecond
        /// Who claims: unique per process (host, pid, a random part).
        public var owner: String
        /// Whether the runner catches SIGTERM, SIGINT, SIGHUP and SIGCHLD itself.
        public var handlesSignals = true
        /// Told every batch of changes the feed reports, on the runner's thread,
        /// before the runner acts on them: serve's web pages follow the store so.
        public var onChanges: ((CountdownChanges) -> Void)?

        public init(owner: String) { self.owner = owner }
    }

    /// How `run` ended.
    public enum Ending: Equatable {
        /// Stopped by a signal or `requestStop`, every started action settled.
        case stopped
        /// Stopped at once by a second signal: ends whose commands ran are left to the lease.
        case stoppedAtOnce
        /// The store or the loop could not be set up; the message says why.
        case failed(String)
    }

    private let store: ServedStore
    private var configuration: Configuration
    public private(set) var catalog: ActionCatalog
    /// Reads the action configuration again (SIGHUP).
    private let loadCatalog: () throws -> ActionCatalog
    /// Lines for the log (standard output) and for problems (standard error).
    private let log: (String) -> Void
    private let report: (String) -> Void

    /// The countdowns followed (those that name actions), by id.
    private var followed: [CountdownID: Followed] = [:]
    private var startedAt: StoreInstant?
    private var stopping = false
    private var notifyChecked: Bool?
    private var reportedFailures: Set<String> = []
    private var controlPipe: [Int32] = [-1, -1]
    /// The signal pipe; -1 when the runner does not catch signals (then nothing
    /// says a command exited, and it looks every 0.1 s while one runs).
    private var signalPipe: Int32 = -1

    /// One followed countdown: the record as last read and where its end stands.
    private struct Followed {
        var record: StoredCountdown
        var phase: Phase = .idle
        /// The end handled last (run here, done elsewhere, damaged, or too old).
        var settledDeadline: Nanoseconds?
    }

    private enum Phase {
        case idle
        /// Another process holds `name`; ask again at `retryAt` (boot clock).
        case held(EndName, retryAt: Nanoseconds)
        /// The store could not be asked; again at `retryAt`.
        case later(retryAt: Nanoseconds)
        /// This process holds the end and runs its commands.
        case running(EndClaim, pids: [pid_t: String], renewAt: Nanoseconds)
    }

    public init(store: ServedStore, configuration: Configuration, catalog: ActionCatalog,
                loadCatalog: @escaping () throws -> ActionCatalog,
                log: @escaping (String) -> Void, report: @escaping (String) -> Void) {
        self.store = store
        self.configuration = configuration
        self.catalog = catalog
        self.loadCatalog = loadCatalog
        self.log = log
        self.report = report
    }

    /// Asks a running `run` to stop as SIGTERM does; safe from any thread.
    public func requestStop() { poke(UInt8(SIGTERM)) }
    /// Asks a running `run` to reload the action configuration as SIGHUP does; safe from any thread.
    public func requestReload() { poke(UInt8(SIGHUP)) }

    private func poke(_ byte: UInt8) {
        var byte = byte
        if controlPipe[1] >= 0 { _ = write(controlPipe[1], &byte, 1) }
    }

    /// Runs on a thread of its own until stopped (`requestStop`), then calls
    /// `ended` on that thread: for a process whose main thread does other work
    /// (a server). Such a process usually handles its signals itself: set
    /// `handlesSignals` to false and forward them with `requestStop`/`requestReload`.
    public func startThread(_ ended: @escaping @Sendable (Ending) -> Void) {
        nonisolated(unsafe) let runner = self
        if let failure = DetachedThread.start({ ended(runner.run()) }) { ended(.failed("cannot start a thread: \(failure)")) }
    }

    /// Catches the signals `run` answers (SIGTERM, SIGINT, SIGHUP, SIGCHLD) from
    /// now on, for a process with work to do before `run` (serve starts its web
    /// server and says where it listens): a signal sent meanwhile waits for `run`
    /// instead of ending the process by its default action. False when they
    /// cannot be caught; `run` then fails and says why.
    @discardableResult
    public static func catchSignals() -> Bool { cdl_service_signals_install() >= 0 }

    /// Runs on the calling thread until stopped.
    public func run() -> Ending {
        let signals = configuration.handlesSignals ? cdl_service_signals_install() : -1
        signalPipe = signals
        if configuration.handlesSignals && signals < 0 { return .failed("cannot catch signals: \(String(cString: strerror(errno)))") }
        guard pipe(&controlPipe) == 0 else { return .failed("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for fd in controlPipe {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        defer {
            close(controlPipe[0])
            close(controlPipe[1])
            controlPipe = [-1, -1]
        }
        let timer: LoopTimer, feedTimer: LoopTimer
        let feed: CountdownChangeFeed
        do {
            timer = try LoopTimer()
            feedTimer = try LoopTimer()
            // The feed first, then the listing: nothing changed in between is missed.
            feed = try store.makeFeed(feedTimer)
            let now = try store.now()
            startedAt = now
            try readAll(at: now)
        } catch {
            return .failed("\(error)")
        }
        log("\(stamp()) serving end actions of \(store.location): \(followed.count) countdown\(followed.count == 1 ? "" : "s") with actions, "
            + "actions \(catalog.actions.keys.sorted().joined(separator: " "))")
        var fds: [pollfd] = []
        while true {
            let now: StoreInstant
            do { now = try store.now() } catch {
                reportOnce("cdscript serve: \(error)")
                now = localNow()
            }
            step(at: now)
            if stopping && runningCount == 0 { return .stopped }
            arm(timer, at: now)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: controlPipe[0], events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: timer.descriptor, events: Int16(POLLIN), revents: 0))
            if signals >= 0 { fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0)) }
            let descriptors = feed.descriptors
            for fd in descriptors { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno != EINTR { return .failed("poll: \(String(cString: strerror(errno)))") }
            if fds[1].revents != 0 { _ = timer.takeExpiry() }
            var wanted: [Int32] = []
            while case let signal = cdl_service_signal_take(controlPipe[0]), signal != 0 { wanted.append(signal) }
            if signals >= 0 { while case let signal = cdl_service_signal_take(signals), signal != 0 { wanted.append(signal) } }
            for signal in wanted {
                switch signal {
                case SIGHUP: reload()
                case SIGCHLD: break
                default:
                    if stopping {
                        log("\(stamp()) stopping at once: \(runningCount) end\(runningCount == 1 ? "" : "s") left unmarked, taken over by another serve after the lease")
                        return .stoppedAtOnce
                    }
                    stopping = true
                    if runningCount > 0 {
                        log("\(stamp()) stopping: waiting for the commands of \(runningCount) end\(runningCount == 1 ? "" : "s") (a second SIGTERM leaves them to the lease)")
                    }
                }
            }
            reap()
            let base = signals >= 0 ? 3 : 2
            if fds[base...].contains(where: { $0.revents != 0 }) || descriptors.isEmpty {
                let changes = feed.drain()
                configuration.onChanges?(changes)
                do {
                    try apply(changes, at: try store.now())
                } catch {
                    reportOnce("cdscript serve: \(error)")
                }
            }
        }
    }

    // MARK: Following the store

    private func readAll(at now: StoreInstant) throws {
        let listing = try store.backend.listing()
        for bad in listing.unreadable { reportOnce("cdscript serve: \(bad)") }
        for record in listing.countdowns { follow(record) }
    }

    private func apply(_ changes: CountdownChanges, at now: StoreInstant) throws {
        switch changes {
        case .none: return
        case .unknown:
            let listing = try store.backend.listing()
            let present = Set(listing.countdowns.map { CountdownID($0.id) })
            for id in followed.keys where !present.contains(id) { forget(id) }
            for record in listing.countdowns { follow(record) }
        case .ids(let ids):
            // One record that cannot be read (another program wrote it) is reported; the others are followed.
            for id in ids {
                do {
                    if let record = try store.backend.load(id: id.string) { follow(record) } else { forget(id) }
                } catch {
                    reportOnce("cdscript serve: \(error)")
                }
            }
        }
    }

    /// Takes the record as it now is: followed while it names actions.
    private func follow(_ record: StoredCountdown) {
        let id = CountdownID(record.id)
        guard !record.actions.isEmpty else {
            forget(id)
            return
        }
        if followed[id] != nil {
            followed[id]!.record = record
        } else {
            followed[id] = Followed(record: record)
        }
    }

    /// The record is gone (cancelled) or names no actions: an end it holds runs on to its end.
    private func forget(_ id: CountdownID) {
        guard let entry = followed[id] else { return }
        if case .running = entry.phase { return }
        followed[id] = nil
    }

    // MARK: Ends

    private var runningCount: Int {
        followed.values.reduce(0) { count, entry in
            if case .running = entry.phase { return count + 1 }
            return count
        }
    }

    /// Does what is due at `now` for every followed countdown.
    private func step(at now: StoreInstant) {
        for id in Array(followed.keys) {
            guard let entry = followed[id] else { continue }
            switch entry.phase {
            case .running(let claim, let pids, let renewAt):
                if pids.isEmpty {
                    settle(id, claim, at: now)
                } else if now.boot >= renewAt {
                    renew(id, claim, pids: pids, at: now)
                }
            case .held(let name, let retryAt):
                if now.boot >= retryAt && !stopping { claim(id, expected: name, at: now) }
            case .later(let retryAt):
                if now.boot >= retryAt && !stopping { consider(id, at: now) }
            case .idle:
                if !stopping { consider(id, at: now) }
            }
        }
    }

    /// Claims the end of `id` if it has come and is not settled.
    private func consider(_ id: CountdownID, at now: StoreInstant) {
        guard var entry = followed[id] else { return }
        let record = entry.record
        entry.phase = .idle
        followed[id] = entry
        guard record.effectiveState(at: now) == .finished else { return }
        if entry.settledDeadline == record.wallDeadline { return }
        if let startedAt, record.wallDeadline < startedAt.wall - configuration.catchUp {
            followed[id]?.settledDeadline = record.wallDeadline
            log("\(stamp()) \(shown(record)): its end at \(UTCTimestamp.iso8601(record.wallDeadline)) passed before serve started; its actions are not run now")
            return
        }
        claim(id, expected: nil, at: now)
    }

    private func claim(_ id: CountdownID, expected: EndName?, at now: StoreInstant) {
        guard let entry = followed[id] else { return }
        let record = entry.record
        do {
            let outcome: EndClaimOutcome
            if let expected {
                outcome = try store.backend.claimEnd(id: record.id, expected: expected, owner: configuration.owner,
                                                     lease: configuration.lease, now: now)
            } else {
                // The end is recorded (the record marked finished) in the claim's transaction where the store allows.
                outcome = try store.backend.recordEndAndClaim(id: record.id, record: { stored in
                    if stored?.state == .running { _ = stored?.finish(at: now) }
                }, owner: configuration.owner, lease: configuration.lease, now: now)
            }
            switch outcome {
            case .won(let claim):
                run(id, claim, at: now)
            case .held(let leaseLeft, let name):
                let wait = min(leaseLeft + 50_000_000, 500_000_000)
                followed[id]?.phase = .held(name, retryAt: now.boot + wait)
            case .done, .ranWith:
                // Run elsewhere (with the status it exited with), or no end to claim (time was added meanwhile: the record is read again).
                followed[id]?.phase = .idle
                if let current = try store.backend.load(id: record.id) {
                    followed[id]?.record = current
                    if current.effectiveState(at: now) == .finished { followed[id]?.settledDeadline = current.wallDeadline }
                } else {
                    forget(id)
                }
            }
        } catch let damage as EndClaimDamage {
            report("cdscript serve: the end of countdown '\(shown(record))' cannot be claimed, so its actions do not run here: \(damage)")
            followed[id]?.phase = .idle
            followed[id]?.settledDeadline = record.wallDeadline
        } catch {
            reportOnce("cdscript serve: \(error); asked again in 1 s")
            followed[id]?.phase = .later(retryAt: now.boot + Time.nanosecondsPerSecond)
        }
    }

    /// Runs the actions of an end this process won.
    private func run(_ id: CountdownID, _ claim: EndClaim, at now: StoreInstant) {
        guard let record = followed[id]?.record else { return }
        let endedAt = UTCTimestamp.iso8601(claim.name.deadline)
        let title = record.title ?? record.id
        var pids: [pid_t: String] = [:]
        let environment = ["CDSCRIPT_ID": record.id, "CDSCRIPT_TITLE": record.title ?? "", "CDSCRIPT_ENDED_AT": endedAt,
                           "CDSCRIPT_TOKEN": String(claim.token)]
        for name in record.actions {
            switch catalog[name] {
            case nil:
                report("cdscript serve: countdown '\(shown(record))' names the action '\(name)', which this serve does not know: "
                       + "nothing runs for it (define it in actions.conf or with --action \(name)=COMMAND)")
            case .log?:
                log("\(stamp()) \(shown(record)) ended at \(endedAt)\(record.title.map { " (\(VisibleText.escaped($0)))" } ?? "") [token \(claim.token)]")
            case .bell?:
                log("\u{07}\(stamp()) \(shown(record)): bell")
            case .notify?:
                if notifyChecked == nil { notifyChecked = ActionProcess.isOnPath("notify-send") }
                guard notifyChecked == true else {
                    reportOnce("cdscript serve: notify-send is not installed (Debian: libnotify-bin): the notify action shows nothing")
                    continue
                }
                let body = "Time's up (ended \(endedAt))"
                start(name, "notify-send", ["notify-send", "--app-name=cdscript", title, body], environment, record, into: &pids)
            case .command(let line)?:
                start(name, "/bin/sh", ["sh", "-c", line], environment.merging(["CDSCRIPT_ACTION": name]) { $1 }, record, into: &pids)
            }
        }
        followed[id]?.phase = .running(claim, pids: pids, renewAt: now.boot + configuration.lease / 3)
        if pids.isEmpty { settle(id, claim, at: now) }
    }

    private func start(_ name: String, _ program: String, _ arguments: [String], _ environment: [String: String],
                       _ record: StoredCountdown, into pids: inout [pid_t: String]) {
        switch ActionProcess.spawn(program, arguments, extraEnvironment: environment) {
        case .success(let pid):
            pids[pid] = name
        case .failure(let error):
            // Never started: nothing ran, and nothing would start it better elsewhere.
            report("cdscript serve: countdown '\(shown(record))', action '\(name)': \(error)")
        }
    }

    /// Collects the commands that have exited.
    private func reap() {
        for (id, entry) in followed {
            guard case .running(let claim, var pids, let renewAt) = entry.phase, !pids.isEmpty else { continue }
            for (pid, name) in pids {
                var status: Int32 = 0
                let result = waitpid(pid, &status, WNOHANG)
                guard result == pid || (result < 0 && errno == ECHILD) else { continue }
                pids[pid] = nil
                if result == pid && status != 0 {
                    report("cdscript serve: countdown '\(shown(entry.record))', action '\(name)': \(ActionProcess.describe(status: status))")
                }
            }
            followed[id]?.phase = .running(claim, pids: pids, renewAt: renewAt)
        }
    }

    private func renew(_ id: CountdownID, _ claim: EndClaim, pids: [pid_t: String], at now: StoreInstant) {
        do {
            if try !store.backend.renewEndClaim(claim, owner: configuration.owner, lease: configuration.lease, now: now) {
                report("cdscript serve: countdown '\(claim.id)': its lease passed while the action ran; another process may run it too (token \(claim.token))")
            }
            followed[id]?.phase = .running(claim, pids: pids, renewAt: now.boot + configuration.lease / 3)
        } catch {
            reportOnce("cdscript serve: \(error)")
            followed[id]?.phase = .running(claim, pids: pids, renewAt: now.boot + min(Time.nanosecondsPerSecond, configuration.lease / 3))
        }
    }

    /// Marks the end done once every action has run.
    private func settle(_ id: CountdownID, _ claim: EndClaim, at now: StoreInstant) {
        do {
            if try !store.backend.finishEndClaim(claim, owner: configuration.owner, now: now) {
                report("cdscript serve: countdown '\(claim.id)': its lease passed before the action was marked done; another process may run it again (token \(claim.token))")
            }
        } catch let damage as EndClaimDamage {
            report("cdscript serve: countdown '\(claim.id)': \(damage)")
        } catch {
            // Asked again: the end stays ours until the lease passes.
            reportOnce("cdscript serve: \(error)")
            followed[id]?.phase = .running(claim, pids: [:], renewAt: now.boot + Time.nanosecondsPerSecond)
            return
        }
        followed[id]?.phase = .idle
        // The end as this process reads the record (a Redis claim names it on the server's clock).
        var record = followed[id]?.record
        if let current = try? store.backend.load(id: claim.id) { record = current }
        guard let record else { return }
        followed[id]?.record = record
        if record.effectiveState(at: now) == .finished { followed[id]?.settledDeadline = record.wallDeadline }
        if record.actions.isEmpty { forget(id) }
    }

    // MARK: Time

    /// Arms `timer` at the earliest thing to do: an end, a retry, a renewal.
    private func arm(_ timer: LoopTimer, at now: StoreInstant) {
        var earliest: Nanoseconds?
        func consider(_ instant: Nanoseconds) { earliest = min(earliest ?? instant, instant) }
        for entry in followed.values {
            switch entry.phase {
            case .running(_, let pids, let renewAt): consider(pids.isEmpty ? now.boot : renewAt)
            case .held(_, let retryAt), .later(let retryAt): if !stopping { consider(retryAt) }
            case .idle:
                guard !stopping, entry.record.state == .running, !entry.record.overtime else { continue }
                if entry.settledDeadline == entry.record.wallDeadline { continue }
                consider(now.boot + max(0, entry.record.timeLeft(at: now)))
            }
        }
        if signalPipe < 0 && runningCount > 0 { consider(now.boot + 100_000_000) }
        if let earliest { timer.arm(afterNanoseconds: Int(max(1, earliest - now.boot))) } else { timer.disarm() }
    }

    private func localNow() -> StoreInstant {
        StoreInstant.now(bootID: nil)
    }

    // MARK: Configuration

    /// Reads the action configuration again; keeps the old one when it cannot be read.
    public func reload() {
        do {
            let new = try loadCatalog()
            let changes = new.changes(from: catalog)
            catalog = new
            log("\(stamp()) reloaded the actions: " + (changes.isEmpty ? "nothing changed" : changes.joined(separator: "; ")))
        } catch {
            report("cdscript serve: the actions were not reloaded, the ones before stay: \(error)")
        }
    }

    // MARK: Messages

    private func stamp() -> String { UTCTimestamp.iso8601(BootClock().wallNow()) }

    private func shown(_ record: StoredCountdown) -> String { VisibleText.escaped(record.id) }

    private func reportOnce(_ message: String) {
        if reportedFailures.insert(message).inserted { report(message) }
    }
}
