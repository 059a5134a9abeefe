@testable import CountdownCore
import Testing

/// The scheduler's record of a countdown: one cache line, with packed flags and
/// one field that holds the start instant or the frozen remaining time.
@Suite("Scheduler records: 64 bytes, packed")
struct SchedulerRecordTests {
    @Test("a record is 64 bytes, and the pages that hold records start on a 64-byte line")
    func oneCacheLine() {
        #expect(MemoryLayout<Scheduler.Record>.stride == 64)
        var records = PagedArray(filler: Scheduler.Record())
        for _ in 0..<5_000 { records.append(Scheduler.Record()) }
        #expect(records.address(of: 0) % 64 == 0)
        #expect(records.address(of: 4_096) % 64 == 0)
    }

    @Test("a new record is finished, not live, wants ticks, and follows no wall clock")
    func defaults() {
        let r = Scheduler.Record()
        #expect(r.state == .finished && !r.live && r.wantsTicks && !r.isWall && r.seq == 0)
    }

    @Test("each flag and the start order change alone, whatever the others hold")
    func flagsAreIndependent() {
        let orders: [UInt64] = [0, 1, 0x00AB_CDEF_0123_4567, (1 << 56) - 1]
        let states: [CountdownState] = [.running, .paused, .finished, .cancelled]
        for seq in orders {
            for state in states {
                for bits in 0..<8 {
                    var r = Scheduler.Record()
                    r.seq = seq
                    r.state = state
                    r.live = bits & 1 != 0
                    r.wantsTicks = bits & 2 != 0
                    r.isWall = bits & 4 != 0
                    #expect(r.seq == seq && r.state == state)
                    #expect(r.live == (bits & 1 != 0) && r.wantsTicks == (bits & 2 != 0) && r.isWall == (bits & 4 != 0))
                    // Changing the order leaves the flags; changing a flag leaves the order.
                    r.seq = seq ^ 0x5A5A
                    r.live.toggle()
                    #expect(r.seq == seq ^ 0x5A5A && r.state == state && r.live == (bits & 1 == 0))
                    #expect(r.wantsTicks == (bits & 2 != 0) && r.isWall == (bits & 4 != 0))
                }
            }
        }
    }

    @Test("paused and resumed before it is announced, a countdown's first tick shows the remaining time at the resume")
    func pausedBeforeAnnounce() {
        let h = Harness()
        let key = h.scheduler.start(CountdownSpec(deadline: .after(s(10))))
        h.clock.set(boot: s(2))
        #expect(h.scheduler.pause(key))
        h.clock.set(boot: s(5))
        #expect(h.scheduler.resume(key))
        h.scheduler.announce(key)
        // 8 s were left at the pause; the tick stands for the resume instant, not the pause's remaining time.
        #expect(h.events == [Event(kind: .tick, key: key, instant: s(5), remaining: s(8), total: s(10), missed: 0, depth: 0)])
    }

    @Test("`at` countdowns keep their wall deadlines beside the records, through append, end and reuse of the slot")
    func wallDeadlinesBesideRecords() throws {
        let h = Harness()
        let wallStart = WallDeadlineHoldsTests.wallStart
        let sale = h.start(.wall(wallStart + s(30)))
        let plain = h.start(10)
        #expect(h.scheduler.wallDeadline(sale) == wallStart + s(30))
        h.scheduler.append(sale, s(5))
        #expect(h.scheduler.wallDeadline(sale) == wallStart + s(35))
        h.scheduler.cancel(sale)
        #expect(h.scheduler.wallDeadline(sale) == nil)
        // The slot the sale had goes to a duration countdown, which follows no wall deadline.
        let next = h.start(20)
        #expect(next.slot == sale.slot)
        #expect(h.scheduler.followsWallClock(next) == false)
        #expect(h.scheduler.wallDeadline(next) == wallStart + s(20))
        // A wall jump moves `at` countdowns only.
        let later = h.start(.wall(wallStart + s(40)))
        h.clock.setWall(h.clock.wallNow() + s(10))
        h.advance(to: 1)
        #expect(h.scheduler.remaining(later) == s(29))
        #expect(h.scheduler.remaining(next) == s(19))
        #expect(h.scheduler.remaining(plain) == s(9))
    }
}
