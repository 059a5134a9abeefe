@testable import CountdownCore
import Testing

/// The scheduler's record store: an array whose elements never move.
@Suite("PagedArray: pages that never move")
struct PagedArrayTests {
    @Test("elements appended across many pages (and a grown page table) keep their values and take changes in place")
    func acrossPages() {
        var array = PagedArray(filler: Int64(-1))
        for i in 0..<20_000 { array.append(Int64(i) * 3) }
        #expect(array.count == 20_000)
        #expect(array.capacity == 20_480)
        array[4_095] += 1
        array[4_096] += 2
        array[19_999] = 7
        #expect(array[0] == 0 && array[4_095] == 4_095 * 3 + 1 && array[4_096] == 4_096 * 3 + 2 && array[19_999] == 7)
        #expect((0..<4_095).allSatisfy { array[$0] == Int64($0) * 3 })
        #expect((4_097..<19_999).allSatisfy { array[$0] == Int64($0) * 3 })
    }

    @Test("a scheduler with more countdowns than one page holds ticks every one of them, in start order")
    func schedulerAcrossPages() throws {
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        let recorder = TickRecorder()
        scheduler.delegate = recorder
        let keys = (0..<10_000).map { _ in
            let key = scheduler.start(CountdownSpec(deadline: .after(Time.nanosecondsPerSecond), every: Time.nanosecondsPerSecond / 10))
            scheduler.announce(key)
            return key
        }
        #expect(Set(keys.map(\.slot)).count == 10_000)
        recorder.ticks.removeAll()
        scheduler.advance(clock, to: Time.nanosecondsPerSecond / 10)
        #expect(recorder.ticks.count == 10_000)
        #expect(recorder.ticks.map(\.key) == keys, "ticks out of start order")
        #expect(recorder.ticks.allSatisfy { $0.remaining == 9 * Time.nanosecondsPerSecond / 10 })
    }
}

private final class TickRecorder: SchedulerDelegate {
    var ticks: [Tick] = []
    func countdownDidTick(_ tick: Tick) { ticks.append(tick) }
    func countdownDidEnd(_ tick: Tick, reason: EndReason) {}
}
