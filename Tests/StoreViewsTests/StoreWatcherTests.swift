import CountdownCore
import Testing
import TerminalView
@testable import StoreViews

/// A plain-output watch of a store in memory, on a virtual clock: the lines it
/// writes, a pass of the run loop at a time.
private final class PlainWatch {
    let store = MemorySharedStore()
    let scheduler: Scheduler
    let watcher: StoreWatcher
    var output = ""

    init(only: [String]? = nil, filter: WatchFilter = WatchFilter(pattern: nil), ticks: Bool = false) {
        scheduler = Scheduler(clock: store.clock)
        let view = ViewController(output: .plain { _ in })
        var lines = ""
        let made = StoreWatcher(store: store, only: only.map { Set($0.map { CountdownID($0) }) }, filter: filter, ticks: ticks,
                                scheduler: scheduler, view: view, terminalRows: nil, plainOutput: { lines += $0 })
        watcher = made
        scheduler.delegate = made
        collect = { let taken = lines; lines = ""; return taken }
    }

    private var collect: () -> String = { "" }

    /// One pass: the changes named, the countdowns due, then what was written.
    func pass(_ changes: CountdownChanges = .none) throws -> [String] {
        try watcher.refresh(changes)
        scheduler.runDue()
        watcher.flush()
        return collect().split(separator: "\n").map(String.init)
    }

    func advance(_ seconds: Int64) throws -> [String] {
        store.advance(seconds)
        return try pass()
    }
}

@Suite struct StoreWatcherTests {
    @Test func aCountdownStoredBeforeTheWatchStartsIsShownOnceRunningWithItsTimeLeft() throws {
        let watch = PlainWatch()
        try watch.store.start("tea", seconds: 60)
        #expect(try watch.pass(.unknown) == ["tea: running  00:01:00.0"])
    }

    @Test func plainOutputWritesNoLinePerTickButALineWhenTheCountdownEnds() throws {
        let watch = PlainWatch()
        try watch.store.start("tea", seconds: 60)
        _ = try watch.pass(.unknown)
        #expect(try watch.advance(30).isEmpty)
        #expect(try watch.advance(31) == ["tea: finished  00:00:00.0"])
    }

    @Test func withTicksPlainOutputWritesALineOnEverySecond() throws {
        let watch = PlainWatch(ticks: true)
        try watch.store.start("tea", seconds: 60)
        _ = try watch.pass(.unknown)
        #expect(try watch.advance(1) == ["tea: running  00:00:59.0"])
    }

    @Test func aPauseMadeElsewhereIsShownWhenTheStoreNamesTheId() throws {
        let watch = PlainWatch()
        try watch.store.start("tea", seconds: 60)
        _ = try watch.pass(.unknown)
        _ = try watch.advance(20)
        let now = try watch.store.now()
        _ = try watch.store.memory.applyChange(id: "tea", at: now) { record, at in record.pauseChange(at: at) }
        #expect(try watch.pass(.ids([CountdownID("tea")])) == ["tea: paused  00:00:40.0"])
        // Paused: its end no longer comes.
        #expect(try watch.advance(100).isEmpty)
    }

    @Test func aCountdownCancelledElsewhereIsShownRemovedAndNeverEnds() throws {
        let watch = PlainWatch()
        try watch.store.start("tea", seconds: 60)
        _ = try watch.pass(.unknown)
        _ = try watch.store.memory.delete(id: "tea")
        #expect(try watch.pass(.ids([CountdownID("tea")])) == ["tea: removed"])
        #expect(try watch.advance(100).isEmpty)
    }

    @Test func aChangeTheStoreCannotNameIsFoundByReadingTheListingAgain() throws {
        let watch = PlainWatch()
        try watch.store.start("a", seconds: 60)
        _ = try watch.pass(.unknown)
        try watch.store.start("b", seconds: 120)
        _ = try watch.store.memory.delete(id: "a")
        #expect(try watch.pass(.unknown) == ["b: running  00:02:00.0", "a: removed"])
    }

    @Test func aChangeThatShowsNothingNewWritesNoLine() throws {
        let watch = PlainWatch()
        try watch.store.start("tea", seconds: 60)
        _ = try watch.pass(.unknown)
        #expect(try watch.pass(.unknown).isEmpty)
        #expect(try watch.pass(.ids([CountdownID("tea")])).isEmpty)
    }

    @Test func aPatternShowsOnlyTheIdsItMatchesWhole() throws {
        let watch = PlainWatch(filter: WatchFilter(pattern: try IDPattern("exam-*")))
        try watch.store.start("exam-1", seconds: 60)
        try watch.store.start("tea", seconds: 60)
        try watch.store.start("my-exam-2", seconds: 60)
        #expect(try watch.pass(.unknown) == ["exam-1: running  00:01:00.0"])
    }

    @Test func anIdAskedForThatIsNotStoredIsSaidToBeNotStored() throws {
        let watch = PlainWatch(only: ["nope"])
        #expect(try watch.pass(.unknown) == ["nope: not stored"])
    }

    @Test func anIdHoldingControlCharactersIsWrittenEscaped() throws {
        let watch = PlainWatch()
        try watch.store.start("bad\u{1B}[2J", seconds: 60)
        #expect(try watch.pass(.unknown) == ["bad\\e[2J: running  00:01:00.0"])
    }

    @Test func anOvertimeCountdownRunsOnPastItsEndCountingUp() throws {
        let watch = PlainWatch(ticks: true)
        try watch.store.start("talk", seconds: 2, overtime: true)
        _ = try watch.pass(.unknown)
        _ = try watch.advance(2)
        #expect(try watch.advance(1) == ["talk: overtime  +00:00:01.0"])
        #expect(watch.watcher.anyRunning(at: try watch.store.now()))
    }
}
