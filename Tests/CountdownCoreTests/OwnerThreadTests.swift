import CountdownCore
import Foundation
import Testing

/// What another thread saw, handed back to the test's thread.
private final class Seen: @unchecked Sendable {
    var isCurrent = true
}

/// Runs `body` on a thread of its own and waits for it.
private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// A scheduler sent to another thread on purpose, to break the rule under test.
private final class Smuggled: @unchecked Sendable {
    let scheduler: Scheduler
    init(_ scheduler: Scheduler) { self.scheduler = scheduler }
}

@Suite("One thread owns the scheduler: the one that made it")
struct OwnerThreadTests {
    @Test("the thread that made a scheduler is its owner; another thread is not")
    func ownerIsTheMakingThread() {
        let scheduler = Scheduler(clock: VirtualClock())
        #expect(scheduler.owner.isCurrent)
        let owner = scheduler.owner
        let seen = Seen()
        onAnotherThread { seen.isCurrent = owner.isCurrent }
        #expect(!seen.isCurrent)
        // The check itself passes on the owner thread, in every build.
        scheduler.owner.assertCurrent("the scheduler")
        scheduler.runDue()
    }

    #if DEBUG
    @Test("debug builds stop a process that enters the scheduler from another thread")
    func anotherThreadStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let smuggled = Smuggled(Scheduler(clock: VirtualClock()))
            let done = DispatchSemaphore(value: 0)
            Thread {
                smuggled.scheduler.runDue()
                done.signal()
            }.start()
            done.wait()
        }
    }
    #endif
}
