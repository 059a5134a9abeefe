import CountdownCore
import Testing

/// A delegate that counts the ticks it is told of.
private final class CountingDelegate: SchedulerDelegate {
    var ticks = 0
    func countdownDidTick(_ tick: Tick) { ticks += 1 }
    func countdownDidEnd(_ tick: Tick, reason: EndReason) {}
}

@Suite("The scheduler does not keep its delegate alive, and never calls one that is gone")
struct SchedulerDelegateTests {
    static let second = Time.nanosecondsPerSecond

    @Test("a delegate lives no longer than its owner keeps it; until then it hears every tick")
    func notKeptAlive() {
        let clock = VirtualClock()
        let scheduler = Scheduler(clock: clock)
        weak var released: CountingDelegate?
        do {
            let delegate = CountingDelegate()
            scheduler.delegate = delegate
            released = delegate
            scheduler.announce(scheduler.start(CountdownSpec(deadline: .after(10 * Self.second))))
            scheduler.advance(clock, to: 2 * Self.second)
            #expect(delegate.ticks == 3)
            scheduler.delegate = nil
        }
        #expect(released == nil)
    }

    @Test("a delegate gone without clearing itself stops the process at its next tick (in every build), instead of being called")
    func goneDelegateStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let clock = VirtualClock()
            let scheduler = Scheduler(clock: clock)
            do {
                let delegate = CountingDelegate()
                scheduler.delegate = delegate
            }
            // The first tick, told to the delegate as the countdown starts.
            scheduler.announce(scheduler.start(CountdownSpec(deadline: .after(10 * Self.second))))
        }
    }
}
