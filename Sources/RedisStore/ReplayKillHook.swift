#if canImport(Glibc)
import Glibc
#endif
import CountdownCore

/// A test hook, nothing more: with `CDSCRIPT_TEST_KILL_AFTER_REPLAY_STEP=N` in
/// its environment, a process replaying the Redis outage journal kills itself
/// with SIGKILL right after the Nth step of the replay. The steps are what a
/// kill -9 can fall between: sequence numbers recorded in the journal, a change
/// applied by the server (its reply read), a row deleted from the journal. Tests
/// kill a replay at every step in turn and check that the next process applies
/// each change once (Tests/StoreFaultTests/RedisReplayKillTests.swift). Read
/// once, only on the replay path; unset, a step costs one comparison.
enum ReplayKillHook {
    static let afterStep: Int? = ProcessEnvironment.value("CDSCRIPT_TEST_KILL_AFTER_REPLAY_STEP").flatMap { Int($0) }
}

extension RedisCountdownStore {
    /// One step of a replay done (see `ReplayKillHook`).
    func replayStepDone() {
        guard let limit = ReplayKillHook.afterStep else { return }
        replaySteps += 1
        if replaySteps == limit { kill(getpid(), SIGKILL) }
    }
}
