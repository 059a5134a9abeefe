import CountdownCore
import Testing

private let s = Time.nanosecondsPerSecond

@Suite("The order a bar without ids shows first")
struct SoonestOrderTests {
    @Test("overtime past its end comes first, then running by end, paused by time left, finished by id")
    func ranks() {
        var order = SoonestOrder()
        order.set("finished", .finished)
        order.set("paused", .paused(left: 5 * s))
        order.set("late", .running(end: 50 * s, overtime: false))
        order.set("soon", .running(end: 20 * s, overtime: false))
        order.set("overtime", .running(end: 5 * s, overtime: true))
        let lead1 = order.first(at: 10 * s)
        #expect(lead1 == "overtime")
        order.set("overtime", nil)
        let lead2 = order.first(at: 10 * s)
        #expect(lead2 == "soon")
        order.set("soon", nil)
        order.set("late", nil)
        let lead3 = order.first(at: 10 * s)
        #expect(lead3 == "paused")
        order.set("paused", nil)
        let lead4 = order.first(at: 10 * s)
        #expect(lead4 == "finished")
        order.set("finished", nil)
        let lead5 = order.first(at: 10 * s)
        #expect(lead5 == nil)
        #expect(order.count == 0)
    }

    @Test("a running countdown whose end passed is finished from then on, behind paused ones; an overtime one stays first")
    func endsPass() {
        var order = SoonestOrder()
        order.set("tea", .running(end: 10 * s, overtime: false))
        order.set("held", .paused(left: 90 * s))
        let lead6 = order.first(at: 9 * s)
        #expect(lead6 == "tea")
        let lead7 = order.first(at: 10 * s)
        #expect(lead7 == "held")
        #expect(order.standing("tea") == .finished)
        order.set("pomodoro", .running(end: 12 * s, overtime: true))
        let lead8 = order.first(at: 100 * s)
        #expect(lead8 == "pomodoro")
    }

    @Test("paused ones past the end of an overtime countdown come before those with time left; ties go by id in byte order")
    func pausedAndTies() {
        var order = SoonestOrder()
        order.set("b", .paused(left: 3 * s))
        order.set("a", .paused(left: 3 * s))
        order.set("past", .paused(left: -2 * s))
        let lead9 = order.first(at: 0)
        #expect(lead9 == "past")
        order.set("past", nil)
        let lead10 = order.first(at: 0)
        #expect(lead10 == "a")
        order.set("z", .running(end: 7 * s, overtime: false))
        order.set("y", .running(end: 7 * s, overtime: false))
        let lead11 = order.first(at: 0)
        #expect(lead11 == "y")
    }

    @Test("a countdown that changes is ordered by what it is now, not by what it was")
    func changes() {
        var order = SoonestOrder()
        order.set("a", .running(end: 10 * s, overtime: false))
        order.set("b", .running(end: 20 * s, overtime: false))
        order.set("a", .running(end: 30 * s, overtime: false))
        let lead12 = order.first(at: 0)
        #expect(lead12 == "b")
        order.set("b", .paused(left: 1 * s))
        let lead15 = order.first(at: 0)
        #expect(lead15 == "a")
        order.set("a", .paused(left: 2 * s))
        let lead16 = order.first(at: 0)
        #expect(lead16 == "b")
        // Many changes of one id leave one of it, and the order stays right.
        for round in 0..<1_000 { order.set("c", .running(end: Int64(round + 100) * s, overtime: false)) }
        let lead13 = order.first(at: 0)
        #expect(lead13 == "c")
        #expect(order.count == 3)
    }

    @Test("finding the first among 100,000 looks at a few entries, not at every countdown, and so does each next one as they end")
    func firstCostsNoPass() {
        var order = SoonestOrder()
        let n = 100_000
        for i in 0..<n { order.set(CountdownID("c\(i)"), .running(end: Int64(i + 1) * s / 1_000, overtime: false)) }
        let before = order.entriesVisited
        let lead14 = order.first(at: 0)
        #expect(lead14 == "c0")
        #expect(order.entriesVisited - before <= 2)
        // The first 1,000 end: each step past an end looks at the one that ended and the next.
        for i in 1...1_000 {
            let lead = order.first(at: Int64(i) * s / 1_000)
            #expect(lead == CountdownID("c\(i)"))
        }
        #expect(order.entriesVisited - before <= 2 + 1_000 * 3, "\(order.entriesVisited - before) entries looked at")
    }
}
