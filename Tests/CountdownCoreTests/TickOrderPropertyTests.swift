import CountdownCore
import Testing

/// Property checks over many countdowns, against a brute-force model. Random but
/// repeatable: each case is seeded.
@Suite("Many countdowns fire exactly as a brute-force model says, in (instant, start order)")
struct TickOrderPropertyTests {
    struct Plan {
        var start: Nanoseconds
        var duration: Nanoseconds
        var every: Nanoseconds
        var wantsTicks: Bool
    }

    struct Expected: Equatable, CustomStringConvertible {
        var index: Int
        var isEnd: Bool
        var instant: Nanoseconds
        var remaining: Nanoseconds
        var description: String { "\(isEnd ? "end" : "tick") #\(index) at \(instant) remaining \(remaining)" }
    }

    static let intervals: [Nanoseconds] = [
        s(0.1), s(0.125), s(0.25), s(0.3), s(0.5), s(0.7), s(1), s(1.5), s(2), 333_333_333,
    ]

    static func randomPlans(count: Int, stages: [Nanoseconds], using rng: inout SeededGenerator) -> [Plan] {
        (0..<count).map { i in
            let every = intervals.randomElement(using: &rng)!
            let duration: Nanoseconds
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: duration = every * Nanoseconds.random(in: 1...30, using: &rng) // aligned
            case 1: duration = s(0.05) * Nanoseconds.random(in: 1...160, using: &rng)
            default: duration = Nanoseconds.random(in: 1...s(8), using: &rng) // any nanosecond
            }
            // Countdowns are started in stage order, so start order follows the index.
            let stage = stages[i * stages.count / count]
            return Plan(start: stage, duration: duration, every: every, wantsTicks: Int.random(in: 0..<10, using: &rng) != 0)
        }
    }

    /// Every event a plan should produce: a tick at start with the full duration, one
    /// wherever the remaining time is a whole multiple of `every`, and the end.
    static func model(_ plans: [Plan]) -> [Expected] {
        var out: [Expected] = []
        for (i, p) in plans.enumerated() {
            out.append(Expected(index: i, isEnd: false, instant: p.start, remaining: p.duration))
            if p.wantsTicks {
                var remaining = (p.duration - 1) / p.every * p.every
                while remaining > 0 {
                    out.append(Expected(index: i, isEnd: false, instant: p.start + p.duration - remaining, remaining: remaining))
                    remaining -= p.every
                }
            }
            out.append(Expected(index: i, isEnd: true, instant: p.start + p.duration, remaining: 0))
        }
        // Stable sort by (instant, start order): a countdown's own events are already in time order.
        return out.enumerated().sorted { l, r in
            (l.element.instant, l.element.index, l.offset) < (r.element.instant, r.element.index, r.offset)
        }.map(\.element)
    }

    /// Starts each plan at its instant on `h`, runs everything, and gives back what
    /// happened in the model's terms.
    static func run(_ plans: [Plan], on h: Harness) throws -> [Expected] {
        var index: [CountdownKey: Int] = [:]
        for (i, plan) in plans.enumerated() {
            if h.now < plan.start { h.scheduler.advance(h.clock, to: plan.start) }
            let key = h.scheduler.start(CountdownSpec(deadline: .after(plan.duration), every: plan.every, wantsTicks: plan.wantsTicks))
            index[key] = i
            h.scheduler.announce(key)
        }
        try h.runAll()
        return h.events.map { e in
            Expected(index: index[e.key] ?? -1, isEnd: e.isEnd, instant: e.instant, remaining: e.remaining)
        }
    }

    @Test("1000 countdowns with varied intervals, durations and start times match the model exactly, ticks delivered one by one or taken in rows",
          arguments: [1 as UInt64, 2, 3, 0xC0FFEE], [false, true])
    func matchesModel(seed: UInt64, batching: Bool) throws {
        var rng = SeededGenerator(seed: seed)
        let stages: [Nanoseconds] = [0, s(1.337), s(2), 3_141_592_653]
        let plans = Self.randomPlans(count: 1000, stages: stages, using: &rng)
        let h = Harness(batching: batching)
        let actual = try Self.run(plans, on: h)
        let expected = Self.model(plans)
        #expect(actual.count == expected.count)
        let firstDifference = actual.indices.first { $0 < expected.count && actual[$0] != expected[$0] }
        if let i = firstDifference {
            Issue.record("first difference at event \(i): \(actual[i]) != \(expected[i])")
        }
        #expect(h.events.allSatisfy { $0.missed == 0 && $0.depth == 0 })
        #expect(h.events.filter(\.isEnd).allSatisfy { $0.kind == .end(.finished) })
        #expect(h.scheduler.nextDue() == nil)
    }

    @Test("items on one interval beside a board on another: the items' ticks are taken in rows, in the model's order")
    func boardBesideItems() throws {
        var plans: [Plan] = []
        // A board ticking each second, then 300 items ticking each tenth, started over 0.3 s.
        plans.append(Plan(start: 0, duration: s(10), every: s(1), wantsTicks: true))
        for i in 0..<300 {
            plans.append(Plan(start: Nanoseconds(i) * 1_000_000, duration: s(2) + Nanoseconds(i) * 7_777, every: s(0.1), wantsTicks: true))
        }
        let h = Harness(batching: true)
        #expect(try Self.run(plans, on: h) == Self.model(plans))
        // Rows took the ticks that runDue did not deliver itself.
        #expect(h.batching!.taken > 0)
    }

    @Test("with random stalls: one end per countdown at its deadline, time never runs backwards, no tick lost or doubled",
          arguments: [7 as UInt64, 8, 9])
    func stallsConserveTicks(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let h = Harness()
        var plans: [Plan] = []
        var index: [CountdownKey: Int] = [:]
        for _ in 0..<8 {
            for _ in 0..<60 {
                let every = Self.intervals.randomElement(using: &rng)!
                let plan = Plan(start: h.now, duration: Nanoseconds.random(in: 1...s(6), using: &rng), every: every, wantsTicks: true)
                let key = h.scheduler.start(CountdownSpec(deadline: .after(plan.duration), every: every))
                index[key] = plans.count
                plans.append(plan)
                h.scheduler.announce(key)
            }
            if Bool.random(using: &rng) {
                h.scheduler.stall(h.clock, for: Nanoseconds.random(in: 0...s(3), using: &rng))
            } else {
                h.scheduler.advance(h.clock, to: h.now + Nanoseconds.random(in: 0...s(1), using: &rng))
            }
        }
        h.stall(for: 2.5)
        try h.runAll()

        let events = h.events
        // Time never runs backwards from one hook to the next, and ties go in start order.
        for (l, r) in zip(events, events.dropFirst()) {
            #expect((l.instant, index[l.key]!) < (r.instant, index[r.key]!), "\(l) before \(r)")
        }
        var delivered = [Int64](repeating: 0, count: plans.count)
        var ends = [Int](repeating: 0, count: plans.count)
        for e in events {
            let i = index[e.key]!
            let p = plans[i]
            #expect(ends[i] == 0, "nothing after the end: \(e)")
            if e.isEnd {
                ends[i] += 1
                #expect(e.kind == .end(.finished))
                #expect(e.instant == p.start + p.duration, "the end stands for the deadline: \(e)")
                #expect(e.remaining == 0)
                delivered[i] += e.missed
            } else {
                #expect(e.remaining == p.start + p.duration - e.instant, "true remaining: \(e)")
                if e.missed == 0 && e.instant != p.start { #expect(e.remaining % p.every == 0, "aligned: \(e)") }
                delivered[i] += 1 + e.missed
            }
        }
        #expect(ends.allSatisfy { $0 == 1 })
        for (i, p) in plans.enumerated() {
            let scheduled = 1 + Int64((p.duration - 1) / p.every)
            #expect(delivered[i] == scheduled, "countdown \(i): delivered + missed must equal the ticks it was due")
        }
    }

    @Test("random pause, resume, append and cancel keep every invariant", arguments: [11 as UInt64, 12])
    func randomOperations(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let h = Harness()
        var keys: [CountdownKey] = []
        var every: [CountdownKey: Nanoseconds] = [:]
        var firstTick: Set<CountdownKey> = []
        for step in 0..<2000 {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1:
                let e = Self.intervals.randomElement(using: &rng)!
                let key = h.scheduler.start(CountdownSpec(deadline: .after(Nanoseconds.random(in: 1...s(5), using: &rng)), every: e))
                keys.append(key)
                every[key] = e
                h.scheduler.announce(key)
            case 2 where !keys.isEmpty: h.scheduler.pause(keys.randomElement(using: &rng)!)
            case 3 where !keys.isEmpty: h.scheduler.resume(keys.randomElement(using: &rng)!)
            case 4 where !keys.isEmpty:
                h.scheduler.append(keys.randomElement(using: &rng)!, Nanoseconds.random(in: 0...s(2), using: &rng))
            case 5 where !keys.isEmpty && step % 7 == 0: h.scheduler.cancel(keys.randomElement(using: &rng)!)
            default:
                h.scheduler.advance(h.clock, to: h.now + Nanoseconds.random(in: 0...s(0.4), using: &rng))
            }
        }
        for key in keys where h.scheduler.state(key) == .paused { h.scheduler.resume(key) }
        try h.runAll()

        var ended: Set<CountdownKey> = []
        var last: Nanoseconds = 0
        for e in h.events {
            #expect(!ended.contains(e.key), "nothing after the end: \(e)")
            #expect(e.instant >= last, "time never runs backwards: \(e)")
            last = e.instant
            #expect(e.missed == 0)
            if e.isEnd {
                ended.insert(e.key)
            } else {
                #expect(e.remaining > 0)
                if firstTick.contains(e.key) {
                    #expect(e.remaining % every[e.key]! == 0, "aligned: \(e)")
                } else {
                    firstTick.insert(e.key)
                }
            }
        }
        #expect(ended.count == keys.count)
        #expect(h.scheduler.activeCount == 0)
        #expect(h.scheduler.nextDue() == nil)
    }
}
