import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// The real binary through a primary, a replica and three sentinels this
    /// suite starts on loopback (and always stops).
    @Suite("Redis through a Sentinel failover, end to end", .serialized)
    final class RedisSentinelEndToEndTests {
        let group: RedisSentinelGroup
        /// Every change waits for the replica (WAIT 1, up to 2 s): what is reported
        /// done is on the replica that the failover promotes.
        var store: [String] { ["--store", group.url + "?wait=1&wait-timeout=2s"] }

        init() throws { group = try RedisSentinelGroup() }

        /// `cdscript append x 1` again and again, 100 ms apart, on a thread of its
        /// own, counting the appends reported done (exit 0) and those tried.
        final class Appender: @unchecked Sendable {
            private let lock = NSLock()
            private var stopped = false
            private var counts = (done: 0, unconfirmed: 0, tried: 0)
            private var doneAt: [Date] = []
            private let finished = DispatchSemaphore(value: 0)

            init(store: [String]) {
                Thread.detachNewThread { [self] in
                    defer { finished.signal() }
                    while !lock.withLock({ stopped }) {
                        let status = (try? LiveProcess.run(["append", "x", "1"] + store, timeout: 30).status) ?? -1
                        lock.withLock {
                            counts.tried += 1
                            if status == 0 {
                                counts.done += 1
                                doneAt.append(Date())
                            } else if status == 12 {
                                // On the primary, but no replica confirmed it in time.
                                counts.unconfirmed += 1
                            }
                        }
                        Thread.sleep(forTimeInterval: 0.1)
                    }
                }
            }

            /// When the first append reported done after `instant` ended.
            func firstDone(after instant: Date) -> Date? { lock.withLock { doneAt.first { $0 > instant } } }

            /// Stops after the append under way, and says how many were done (exit 0),
            /// made on the primary without a replica's confirmation (exit 12) and tried.
            func stop() -> (done: Int, unconfirmed: Int, tried: Int) {
                lock.withLock { stopped = true }
                finished.wait()
                return lock.withLock { counts }
            }
        }

        /// The whole length of "x" on `server`, in seconds (field 7 of the record).
        func storedTotal(on server: RedisServer) throws -> Double? {
            let fields = try server.cli("HGET", "cdscript:countdowns", "x").split(separator: "|", omittingEmptySubsequences: false)
            return fields.count > 6 ? Double(fields[6]).map { $0 / 1e9 } : nil
        }

        @Test("the primary is SIGKILLed while 5 followers show one countdown and a sixth process appends every 100 ms (each waiting for the replica), and the killed server comes back as a replica: the followers follow the new primary, and every append reported done is on it")
        func failoverUnderLoad() throws {
            #expect(try LiveProcess.run(store + [Scratch.script(#"countdown.start{ id = "x", seconds = 600, persist = true }; os.exit(0)"#)]).status == 0)
            let followers = try (0..<5).map { _ in try LiveProcess(store + [SharingScripts.runner()]) }
            defer { for f in followers { f.signal(SIGKILL) } }
            for f in followers { #expect(f.waitForLine { $0.hasPrefix("tick") } != nil, "\(f.stderr)") }
            let appender = Appender(store: store)
            Thread.sleep(forTimeInterval: 1)

            let old = group.primary.port
            let killed = Date()
            group.primary.signal(SIGKILL)
            let newPort = try group.waitForFailover(from: old)
            let switched = Date()
            // Until the killed server is back, the new primary has no replica to
            // confirm a change (exit 12); started again, the sentinels make it one.
            try group.primary.start()
            let rejoined = Date().addingTimeInterval(60)
            while !((try? group.primary.cli("INFO", "replication"))?.contains("master_link_status:up") ?? false) && Date() < rejoined {
                Thread.sleep(forTimeInterval: 0.1)
            }
            Thread.sleep(forTimeInterval: 2)
            let appends = appender.stop()
            let promoted = try #require([group.replica].first { $0.port == newPort })

            let total = try #require(try storedTotal(on: promoted))
            #expect(total >= 600 + Double(appends.done), "every append reported done is on the new primary: \(total) s stored, \(appends.done) done of \(appends.tried)")
            #expect(total <= 600 + Double(appends.tried), "no append counted twice: \(total) s stored, \(appends.tried) tried")

            // The followers hold the new primary's countdown: a change made there reaches each at once.
            // Each must then show more than it showed last (SharingScripts.lastShown).
            let counts = followers.map { $0.lines.count }
            let shown = followers.map(SharingScripts.lastShown)
            let final = try Live.command(["append", "x", "100"] + store)
            #expect(final.status == 0, "\(final.stderr)")
            var seen: [Double] = []
            for ((f, count), before) in zip(zip(followers, counts), shown) {
                let tick = Live.next(f, after: count, timeout: 5) { (SharingScripts.remaining($0) ?? 0) > before + 50 }
                #expect(tick != nil, "a follower did not follow the new primary: \(f.texts.suffix(3)) \(f.stderr)")
                if let tick {
                    #expect(tick.at.timeIntervalSince(final.ended) < 1, "the change reached a follower \(tick.at.timeIntervalSince(final.ended)) s after it was made")
                    seen.append(SharingScripts.remaining(tick.text)!)
                }
            }
            #expect((seen.max() ?? 0) - (seen.min() ?? 0) < 0.5, "the followers agree: \(seen)")
            let firstAppend = appender.firstDone(after: switched).map { String(format: "%.2f s", $0.timeIntervalSince(switched)) } ?? "none"
            print("sentinel failover figures: primary killed -> sentinels switched \(String(format: "%.2f", switched.timeIntervalSince(killed))) s; switch -> first append done \(firstAppend); appends done \(appends.done), unconfirmed by a replica \(appends.unconfirmed), tried \(appends.tried); stored \(total) s (600 + \(Int(total) - 600))")
        }
    }
}
