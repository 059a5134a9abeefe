#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore

/// Changes to a Redis store as they happen: a second connection subscribed to
/// the store's channel, whose descriptor the run loop polls with everything else.
/// Each change script publishes the id it changed.
///
/// When the server is lost (either connection fails), a one-shot timer from the
/// run loop retries with backoff (0.1 s doubling to 2 s: no busy loop, no wake-up
/// storm). Once the store is connected again, the changes queued meanwhile are
/// sent in slices of a few milliseconds, one per pass of the run loop (the timer
/// fires again at once), so ticks, redraws and keys go on during a long replay.
/// When all are sent the feed reports `.unknown` so holders re-read everything
/// (in slices, `loadEach`): changes published while nobody listened are not lost.
/// A change made elsewhere is reported by its id, so it costs a process holding
/// 100,000 countdowns one read of that one.
public final class RedisChangeFeed: CountdownChangeFeed {
    public let store: RedisCountdownStore
    private var subscriber: RedisConnection?
    /// A `redis-sentinel://` store: a sentinel's connection subscribed to
    /// `+switch-master`, so a failover is followed the moment the sentinels agree.
    private var sentinelWatch: RedisConnection?
    private let timer: WakeUpTimer
    private var backoff: Int = 0
    static let firstBackoff = 100
    static let longestBackoff = 2_000

    /// Follows `store`; `timer` paces the retries and replays, from the run loop
    /// (`WakeUpTimerSource`).
    public init(store: RedisCountdownStore, timer: WakeUpTimer) {
        self.store = store
        self.timer = timer
        store.onLost = { [unowned self] in self.lost() }
        watchSentinels()
        if !subscribe() { scheduleRetry() }
    }

    public var descriptors: [Int32] {
        [subscriber?.fd, sentinelWatch?.fd, timer.descriptor].compactMap { $0 }.filter { $0 >= 0 }
    }

    public func drain() -> CountdownChanges {
        var changes = CountdownChanges.none
        // Changes since the store read ahead are reported now, or were lost with the connection.
        store.dropReadAhead()
        followSwitches()
        if timer.takeExpiry() {
            if sentinelWatch == nil { watchSentinels() }
            if retry() { changes = .unknown }
        }
        // Read only what is there: a blocking read on a quiet subscriber would wait
        // for its timeout and take the silence for a lost server.
        guard let subscriber, Self.isReadable(subscriber.fd) else { return changes }
        do {
            var ids: Set<CountdownID> = []
            for reply in try subscriber.pendingReplies() {
                if case .array(let parts) = reply, parts.count == 3, parts[0].string == "message", let id = parts[2].string {
                    ids.insert(CountdownID(id))
                }
            }
            if !ids.isEmpty { changes = changes.merged(with: .ids(ids)) }
        } catch {
            lost()
        }
        return changes
    }

    static func isReadable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// Opens the subscriber connection; false when the server cannot be reached.
    @discardableResult
    private func subscribe() -> Bool {
        do {
            let connection = try RedisConnection(store.url, timeoutMilliseconds: subscriber == nil && backoff == 0 ? store.timeoutMilliseconds : store.reconnectTimeoutMilliseconds)
            let reply = try connection.command(["SUBSCRIBE", store.channel])
            guard case .array = reply else { return false }
            subscriber = connection
            store.feedSubscribed = true
            return true
        } catch {
            return false
        }
    }

    private func lost() {
        let wasSubscribed = subscriber != nil
        subscriber?.close()
        subscriber = nil
        store.feedSubscribed = false
        store.dropReadAhead()
        if backoff == 0 { scheduleRetry() }
        if wasSubscribed { store.markLost("lost the connection to \(store.url)") }
    }

    /// Subscribes to `+switch-master` on the first sentinel that answers (a
    /// `redis-sentinel://` store only); without one, the retries find the new
    /// primary on their own, only later.
    private func watchSentinels() {
        guard store.url.isSentinel else { return }
        for sentinel in store.url.sentinels {
            guard let connection = try? RedisConnection(RedisURL(sentinel: sentinel, tls: store.url.tls), timeoutMilliseconds: store.reconnectTimeoutMilliseconds),
                  case .array = try? connection.command(["SUBSCRIBE", "+switch-master"]) else { continue }
            sentinelWatch = connection
            return
        }
    }

    /// A `+switch-master` for this store's primary: the connections to the old
    /// one are dropped (it may still be up, demoted or cut off) and the store
    /// reconnects now, through the sentinels, to the new one.
    private func followSwitches() {
        guard let watch = sentinelWatch, let name = store.url.masterName, Self.isReadable(watch.fd) else { return }
        var switched = false
        do {
            for case .array(let parts) in try watch.pendingReplies() where parts.count == 3 && parts[0].string == "message" {
                // "<name> <old ip> <old port> <new ip> <new port>"
                if parts[2].string?.split(separator: " ").first.map(String.init) == name { switched = true }
            }
        } catch {
            sentinelWatch = nil
            if backoff == 0 { scheduleRetry() }
        }
        guard switched else { return }
        if subscriber != nil { lost() }
        store.markLost("the sentinels moved the primary of \(name)")
        backoff = 0
        fireSoon()
    }

    /// How long one slice of a replay may send for.
    static let replaySliceMilliseconds = 5

    private func retry() -> Bool {
        guard store.reconnect() else {
            scheduleRetry()
            return false
        }
        guard store.replayPending(forMilliseconds: Self.replaySliceMilliseconds) else {
            if store.isOffline { scheduleRetry() } else { fireSoon() }
            return false
        }
        if subscriber != nil || subscribe() {
            backoff = 0
            return true
        }
        scheduleRetry()
        return false
    }

    /// The next slice of a replay, after the run loop's next pass.
    private func fireSoon() {
        timer.arm(afterNanoseconds: 1)
    }

    private func scheduleRetry() {
        backoff = backoff == 0 ? Self.firstBackoff : min(backoff * 2, Self.longestBackoff)
        timer.arm(afterNanoseconds: backoff * 1_000_000)
    }
}
