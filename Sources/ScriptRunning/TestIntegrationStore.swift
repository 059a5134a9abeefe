import CommandEnding
import CountdownCore
import SQLiteStore
import FoundationEssentials
import RedisStore
import ScriptTesting
#if canImport(Glibc)
import Glibc
#endif

/// `cdscript test --state-dir DIR` and `--store URL`: specs run against a real
/// store, for integration tests. Each test works under an id prefix of its own
/// (`cdscript-test/RUN/N/`, which the specs never see: TestStore.swift), so
/// that runs sharing a store keep apart; what a test stored is removed after
/// it, and whatever the run left under its prefix at its end.
extension TestRun {
    /// The store `flags` name, opened (so that one that cannot be used ends the
    /// run before any test, exit 6), or nil for a store in memory per test.
    static func openIntegrationStore(_ flags: TestFlags) throws -> CountdownStoreBackend? {
        if let redis = flags.store {
            let redisURL = try redis()
            // Instants go to Redis as the virtual clock gives them: the store's
            // measure of the server's clock is taken against a clock that does
            // not move, so it shifts every instant by one constant amount (the
            // server's clock minus this machine's) and never again.
            let store = RedisCountdownStore(url: redisURL, clock: FixedClock(wall: BootClock().wallNow()))
            store.notice = { printError($0) }
            do {
                try store.connect()
            } catch {
                printError("cdscript test: --store: \(error)")
                throw CommandExit(.storeError)
            }
            return store
        }
        if let stateDir = flags.stateDir {
            let store = SQLiteCountdownStore(directory: stateDir)
            do {
                try store.open()
            } catch {
                printError("cdscript test: --state-dir: \(error)")
                throw CommandExit(.storeError)
            }
            return store
        }
        return nil
    }

    /// Removes what the run left in `store` under its prefix (a test stopped by
    /// --no-keep-going, say); says so when it cannot.
    static func cleanUp(_ store: CountdownStoreBackend, runner: TestRunner) {
        if let problem = TestStore.remove(prefix: runner.testStore.runPrefix, from: store) {
            printError("cdscript test: the countdowns this run stored under \(runner.testStore.runPrefix) could not be removed: \(problem)")
        }
    }
}

/// A clock that never moves, at a given wall time.
private final class FixedClock: TimeSource {
    let wall: Nanoseconds
    init(wall: Nanoseconds) { self.wall = wall }
    func bootNow() -> Nanoseconds { 0 }
    func wallNow() -> Nanoseconds { wall }
}
