import CountdownCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif

/// A request as it arrived whole.
struct WebRequest {
    var method: HTTPMethod
    var target: String
    var headers: HTTPHeaders
    var body: [UInt8]
}

/// What a route answers: a whole response, or an event stream that stays open.
enum Routed {
    case response(WebResponse)
    case eventStream
    /// An event stream that starts with `first` and then gets what `subscribers` are sent (a script's view).
    case stream(first: String, subscribers: EventSubscribers)
}

/// Everything the server knows, owned by its one event-loop thread: the store,
/// the tracker of what pages were told, the open event streams and the one timer
/// for the next end. Every store call runs here (they are short), so there is no
/// lock anywhere; other threads reach it only through `eventLoop.execute`.
final class ServerCore: @unchecked Sendable {
    let configuration: ServerConfiguration
    let eventLoop: any EventLoop
    private let store: CountdownStoreBackend
    private let clock: @Sendable () -> StoreInstant
    private let timeZone: any LocalZone
    private var tracker = CountdownChangeTracker()
    let subscribers = EventSubscribers()
    private var boundaryTimer: Scheduled<Void>?
    private var heartbeatTimer: RepeatedTask?
    /// Open connections (the cap's count).
    var connections = 0
    /// The port bound; set once listening.
    var port = 0
    /// The certificate new connections are given: the configuration's, until `reloadTLS` replaces it.
    var tls: ServerTLS?
    /// The heartbeat event, encoded once (`EventStreamText.heartbeat`).
    let heartbeatText: String

    init(configuration: ServerConfiguration, store: CountdownStoreBackend, clock: @escaping @Sendable () -> StoreInstant,
         timeZone: any LocalZone, eventLoop: any EventLoop) {
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.timeZone = timeZone
        self.eventLoop = eventLoop
        heartbeatText = EventStreamText.heartbeat(interval: configuration.heartbeatInterval)
        tls = configuration.tls
    }

    var requestGuard: RequestGuard { RequestGuard(configuration: configuration, port: port) }

    // MARK: Following the store

    /// Reads the store again (what `changes` names, or all of it) and tells the pages what differs.
    func storeChanged(_ changes: CountdownChanges) {
        eventLoop.preconditionInEventLoop()
        let now = clock()
        var events: [CountdownEvent] = []
        do {
            switch changes {
            case .none: return
            case .unknown:
                events = tracker.replaceAll(with: try store.listing().countdowns, at: now)
            case .ids(let ids):
                for id in ids.sorted() {
                    if let event = tracker.update(id: id.string, to: try store.load(id: id.string), at: now) { events.append(event) }
                }
            }
        } catch {
            // The store cannot be read now: pages keep what they were told; the next change reads again.
            return
        }
        publish(events, at: now)
    }

    /// Tells the pages what time alone changed (ends, overtimes) by now.
    func timePassed() {
        eventLoop.preconditionInEventLoop()
        let now = clock()
        publish(tracker.advance(to: now), at: now)
    }

    private func publish(_ events: [CountdownEvent], at now: StoreInstant) {
        for event in events {
            broadcast(EventStreamText.event(event, at: now))
        }
        scheduleBoundary(at: now)
    }

    private func broadcast(_ text: String) {
        guard subscribers.count > 0 else { return }
        subscribers.broadcast(ByteBuffer(string: text))
        stopHeartbeatWithoutStreams()
    }

    /// One timer, for the soonest end of all: never one per countdown.
    private func scheduleBoundary(at now: StoreInstant) {
        boundaryTimer?.cancel()
        boundaryTimer = nil
        guard let wait = tracker.nextBoundary(at: now) else { return }
        // A millisecond late, so that the end has surely come; at most a day ahead (re-checked then).
        let delay = min(wait, 86_400 * Time.nanosecondsPerSecond) + 1_000_000
        boundaryTimer = eventLoop.scheduleTask(in: .nanoseconds(delay)) { [self] in
            boundaryTimer = nil
            timePassed()
        }
    }

    func withStore<T>(notify: Bool, _ body: (CountdownStoreBackend) throws -> T) throws -> T {
        eventLoop.preconditionInEventLoop()
        defer { if notify { storeChanged(.unknown) } }
        return try body(store)
    }

    func stopTimers() {
        boundaryTimer?.cancel()
        boundaryTimer = nil
        heartbeatTimer?.cancel()
        heartbeatTimer = nil
    }

    // MARK: Event streams

    /// The groups of open streams the heartbeat reaches: the stored countdowns'
    /// (`subscribers`) and, in a script view's server, the view's.
    private var streamGroups: [EventSubscribers] = []

    /// A stream opened in `group`: it gets the group's events from now on, and
    /// the heartbeat runs while any stream is open.
    func addStream(_ stream: EventSubscriber, to group: EventSubscribers) {
        eventLoop.preconditionInEventLoop()
        group.add(stream)
        if !streamGroups.contains(where: { $0 === group }) { streamGroups.append(group) }
        guard heartbeatTimer == nil else { return }
        let interval = TimeAmount.nanoseconds(Int64(configuration.heartbeatInterval * 1e9))
        heartbeatTimer = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in heartbeat() }
    }

    func removeStream(_ stream: EventSubscriber, from group: EventSubscribers) {
        group.remove(stream)
        stopHeartbeatWithoutStreams()
    }

    var heartbeatIsScheduled: Bool { heartbeatTimer != nil }

    /// The heartbeat event on every stream: the pages time their silence from it.
    private func heartbeat() {
        let beat = ByteBuffer(string: heartbeatText)
        for group in streamGroups { group.broadcast(beat) }
        stopHeartbeatWithoutStreams()
    }

    /// The timer runs only while a stream is open: a server nobody watches never wakes up.
    private func stopHeartbeatWithoutStreams() {
        guard streamGroups.allSatisfy({ $0.count == 0 }) else { return }
        heartbeatTimer?.cancel()
        heartbeatTimer = nil
    }

    // MARK: A server gone silent (for tests)

    /// While true, the server writes nothing to any connection and answers no
    /// request, its connections left open: what a page sees of a server whose
    /// process is stopped or whose host left the network. Requests that arrive
    /// meanwhile are answered once it speaks again; events and heartbeats are
    /// not sent (a page that noticed the silence reconnects and gets a snapshot).
    private(set) var isSilent = false
    private var heldWhileSilent: [() -> Void] = []

    func setSilent(_ silent: Bool) {
        eventLoop.preconditionInEventLoop()
        isSilent = silent
        guard !silent else { return }
        let held = heldWhileSilent
        heldWhileSilent = []
        for work in held { work() }
    }

    /// Runs `work` now, or once the server speaks again.
    func whenSpeaking(_ work: @escaping () -> Void) {
        if isSilent { heldWhileSilent.append(work) } else { work() }
    }

    /// The snapshot a new event stream starts with.
    func snapshotText() -> String {
        EventStreamText.snapshot(tracker.countdowns, at: clock())
    }

    // MARK: Routes

    func route(_ request: WebRequest) -> Routed {
        eventLoop.preconditionInEventLoop()
        let requestGuard = self.requestGuard
        if let refusal = requestGuard.checkOrigin(request.headers) { return .response(refusal) }
        guard let target = RequestTarget(request.target) else {
            return .response(.error(.badRequest, "the request's path is not valid percent-encoded UTF-8"))
        }
        let s = target.segments
        // A server showing a script's view (`run --serve`) serves that view only.
        if let scriptView = configuration.scriptView {
            return scriptView.route(request, segments: s, query: target.query, guard: requestGuard)
        }
        guard s.first == "api" else {
            guard request.method == .GET else { return .response(.wrongMethod(allowed: [.GET])) }
            if let page = Self.page(s) { return .response(WebResponse(status: .ok, contentType: page.contentType, body: page.bytes)) }
            return .response(.error(.notFound, "no such page"))
        }
        // Only what the table has (APIRoutes, held to docs/openapi.yaml).
        switch CountdownRoute.match(request.method, s) {
        case .notFound:
            return .response(.error(.notFound, "no such resource"))
        case .wrongMethod(let allowed):
            return .response(.wrongMethod(allowed: allowed))
        case .route(let route, let id):
            let refusal = route.method == .GET ? requestGuard.checkRead(request.headers, query: target.query)
                                               : requestGuard.checkControl(request.headers)
            if let refusal { return .response(refusal) }
            let id = id ?? ""
            switch route {
            case .list: return .response(listAll())
            case .events: return .eventStream
            case .show: return .response(show(id: id))
            case .start: return .response(start(request.body))
            case .append, .pause, .resume, .cancel: return .response(change(id: id, route: route, body: request.body))
            }
        }
    }

    private static func page(_ s: [String]) -> StaticPages.Asset? {
        switch s.count {
        case 0: return StaticPages.index
        case 2 where s[0] == "c": return StaticPages.countdown
        case 2 where s[0] == "overlay": return StaticPages.overlay
        case 2 where s[0] == "assets": return StaticPages.assets[s[1]]
        default: return nil
        }
    }

    // MARK: The API

    private func storeFailure(_ error: any Error) -> WebResponse {
        .error(.internalServerError, "the store cannot be used: \(error)")
    }

    private static func unknown(_ id: String) -> WebResponse {
        .error(.notFound, "no stored countdown has the id '\(VisibleText.escaped(id))'")
    }

    private static func record(_ c: StoredCountdown, at now: StoreInstant, status: HTTPResponseStatus = .ok) -> WebResponse {
        var text = ""
        CountdownJSON.appendRecord(c, at: now, to: &text)
        text += "\n"
        return .json(text, status: status)
    }

    /// `GET /api/countdowns`: what `list --json` prints, from the same encoder.
    func listAll() -> WebResponse {
        let now = clock()
        let listing: StoredCountdownListing
        do { listing = try store.listing() } catch { return storeFailure(error) }
        var text = listing.countdowns.isEmpty ? "[]\n" : "[\n"
        for (index, c) in listing.countdowns.enumerated() {
            if index > 0 { text += ",\n" }
            CountdownJSON.appendRecord(c, at: now, to: &text)
        }
        if !listing.countdowns.isEmpty { text += "\n]\n" }
        var response = WebResponse.json(text)
        // As `list` goes on past records it cannot read, and says how many there were.
        if !listing.unreadable.isEmpty { response.headers.append(("X-Unreadable-Countdowns", String(listing.unreadable.count))) }
        return response
    }

    func show(id: String) -> WebResponse {
        let now = clock()
        do {
            guard let c = try store.load(id: id) else { return Self.unknown(id) }
            return Self.record(c, at: now)
        } catch {
            return storeFailure(error)
        }
    }

    /// `POST /api/countdowns`: `cdscript start`'s checks, 409 when the id is taken by one not finished.
    func start(_ body: [UInt8]) -> WebResponse {
        let request: StartRequest
        do { request = try StartRequest(json: body) } catch { return .error(.badRequest, error.message) }
        let now = clock()
        let spec: TimerSpec
        do {
            if request.isDeadline {
                guard DeadlineParser.isDeadlineText(request.spec) else {
                    return .error(.badRequest, "\"deadline\" must be a time of day or a date (20:00, 2026-12-01T20:00:00Z), got \"\(DurationRangeError.shown(request.spec))\"")
                }
                spec = .deadline(try DeadlineParser.parse(request.spec, wallNow: now.wall, timeZone: timeZone))
            } else {
                spec = .duration(try DurationRange.span.read(request.spec))
            }
        } catch let error as DurationRangeError {
            return .error(.badRequest, "\"duration\" \(error)")
        } catch {
            return .error(.badRequest, "\"deadline\": \(error)")
        }
        var every = Time.nanosecondsPerSecond
        if let text = request.every {
            do { every = try DurationRange.tickInterval.read(text) } catch { return .error(.badRequest, "\"every\" \(error)") }
        }
        let record: StoredCountdown
        do {
            record = try StoredCountdown.started(id: request.id, spec: spec, every: every, overtime: request.overtime,
                                                 title: request.title, actions: request.actions, at: now)
        } catch {
            return .error(.badRequest, "cannot start '\(VisibleText.escaped(request.id))': \(error)")
        }
        var taken: String?
        do {
            try store.modify(id: request.id) { stored in
                if let stored, stored.effectiveState(at: now) != .finished {
                    taken = stored.listedState(at: now)
                    return
                }
                stored = record
            }
        } catch {
            return storeFailure(error)
        }
        if let taken {
            return .error(.conflict, "a countdown with the id '\(VisibleText.escaped(request.id))' is already stored (\(taken)): cancel it first")
        }
        published(id: request.id, record, at: now)
        return Self.record(record, at: now, status: .created)
    }

    /// `POST /api/countdowns/ID/ACTION`: what `cdscript append|pause|resume|cancel` do, with their messages.
    func change(id: String, route: CountdownRoute, body: [UInt8]) -> WebResponse {
        let change: (inout StoredCountdown, StoreInstant) -> StoredChangeOutcome
        let verb: String
        switch route {
        case .cancel:
            return cancel(id: id)
        case .append:
            let request: AppendRequest
            do { request = try AppendRequest(json: body) } catch { return .error(.badRequest, error.message) }
            let amount: Nanoseconds
            do { amount = try DurationRange.change.read(request.duration) } catch { return .error(.badRequest, "\"duration\" \(error)") }
            change = { record, now in record.appendChange(amount, shown: request.duration, at: now) }
            verb = "append to"
        case .pause:
            change = { record, now in record.pauseChange(at: now) }
            verb = "pause"
        case .resume:
            change = { record, now in record.resumeChange(at: now) }
            verb = "resume"
        case .list, .start, .show, .events:
            preconditionFailure("\(route) changes no countdown")
        }
        let now = clock()
        let outcome: StoredChangeOutcome?
        let after: StoredCountdown?
        do {
            (outcome, after) = try store.applyChange(id: id, at: now, change)
        } catch {
            return storeFailure(error)
        }
        switch outcome {
        case nil:
            return Self.unknown(id)
        case .ended?:
            return .error(.conflict, "the stored countdown '\(VisibleText.escaped(id))' has finished: nothing to \(verb)")
        case .refused(let why)?:
            return .error(.badRequest, "'\(VisibleText.escaped(id))': \(why); it was left as it is")
        case .unchanged?:
            return after.map { Self.record($0, at: now) } ?? Self.unknown(id)
        case .changed?:
            published(id: id, after, at: now)
            return after.map { Self.record($0, at: now) } ?? Self.unknown(id)
        }
    }

    private func cancel(id: String) -> WebResponse {
        let removed: Bool
        do { removed = try store.delete(id: id) } catch { return storeFailure(error) }
        guard removed else { return Self.unknown(id) }
        published(id: id, nil, at: clock())
        return .json("{\"cancelled\":" + { var s = ""; CountdownJSON.appendString(id, to: &s); return s }() + "}\n")
    }

    /// A change this server made: the pages hear of it at once, before any change feed reports it.
    private func published(id: String, _ record: StoredCountdown?, at now: StoreInstant) {
        if let event = tracker.update(id: id, to: record, at: now) { publish([event], at: now) }
    }
}
