#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CountdownCore
import SQLiteStore
import EventLoop
import FoundationEssentials
import TerminalView

/// `cdscript watch [ID...]`: a live view of stored countdowns, following changes
/// made by any process (or machine, with Redis) as they are committed.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show stored countdowns live (all, or the ids given), following changes made anywhere. q or Ctrl-C ends it.",
        discussion: "In a terminal the countdowns fill a page of rows; \(WatchPage.keysHelp) move it. Plain output prints a line when a countdown appears, changes, ends or goes."
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var viewOptions: ViewOptions

    @OptionGroup var barOptions: BarOptions

    @OptionGroup var selection: WatchSelectionOptions

    @Argument(help: "Ids to show (default: every stored countdown).", completion: .storedIDs)
    var ids: [String] = []

    func run() throws {
        if barOptions.bar != nil { return try BarWatch.run(options: barOptions, storeOptions: storeOptions, ids: ids) }
        OutputContract.endRunOnFailure()
        let store = try storeOptions.openShared()
        let scheduler = Scheduler(clock: BootClock())
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        let (controller, session) = viewOptions.makeView()
        defer { session?.end() }
        // Made below, once onOpen is set: its first element opens the view and starts the keys.
        var watcher: StoreWatcher?
        loop.isDone = { controller.isClosed }
        loop.afterPass = {
            watcher?.flush()
            controller.render()
        }
        loop.onSignal = { signal in
            ViewOptions.follow(signal, session: session, controller: controller)
            if signal == SIGWINCH { watcher?.layOut() }
        }
        if let session, session.inputFD >= 0 {
            controller.onOpen = {
                loop.watch(session.inputFD) {
                    guard let keys = session.readKeys() else {
                        loop.unwatch(session.inputFD)
                        return
                    }
                    for key in keys {
                        if controller.press(key) == .quit { loop.stop() } else { _ = watcher?.press(key) }
                    }
                }
            }
        }
        let made = StoreWatcher(store: store, only: ids.isEmpty ? nil : Set(ids.map { CountdownID($0) }), selection: selection,
                                scheduler: scheduler, view: controller, terminalRows: session.map { session in { session.size.rows } })
        watcher = made
        scheduler.delegate = made
        let feed: CountdownChangeFeed
        do {
            feed = try store.changeFeed(timers: loop)
            // It shows the store its path names now, even one removed or moved over.
            (feed as? SQLiteChangeWatcher)?.followsReplacedFile = true
            try made.refresh(.unknown)
        } catch {
            session?.end()
            throw failOnStore(error)
        }
        loop.follow(feed) { changes in
            do {
                try made.refresh(changes)
            } catch {
                made.showError("\(error)")
            }
        }
        let outcome = loop.run()
        made.flush()
        let quitEarly = controller.quitKey != nil && (try? store.now()).map(made.anyRunning) ?? false
        session?.end()
        if case .signal(let signal) = outcome { try RunCommand.exit(afterSignal: signal) }
        try OutputContract.check()
        if controller.quitKey == "ctrl-c" { throw ExitCode(ExitStatus.interrupted.rawValue) }
        // As for `run`: 0 only when every countdown shown had ended.
        if quitEarly { throw ExitCode(ExitStatus.quitEarly.rawValue) }
    }
}
