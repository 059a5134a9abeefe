#if canImport(Glibc)
import CommandEnding
import Glibc
#endif
import CountdownCore
import EventLoop
import SQLiteStore
import TerminalView

/// `cdscript watch`'s run, once the command has opened the store, the run loop
/// and the view: a `StoreWatcher` follows the store's change feed on the loop,
/// the view's keys page it (q ends it), and the loop runs until the view closes
/// or a signal ends it.
public enum StoreWatch {
    /// How a watch ended.
    public struct Ending: Sendable {
        /// How the run loop ended (a signal, or by itself).
        public let outcome: MainLoop.Outcome
        /// The view was closed by a key while a countdown shown was still running.
        public let quitEarly: Bool
    }

    /// Shows `only` those ids (none: every stored one) that `filter` admits on
    /// `view` (`session`: the terminal, nil for plain output); `onSignal` is what
    /// the view does for a signal (the terminal's size, Ctrl-Z), before the page
    /// is laid out again. A store that cannot be followed: exit 6.
    public static func run(store: SharedStore, only: [String], filter: WatchFilter, ticks: Bool, scheduler: Scheduler, loop: MainLoop,
                           view: ViewController, session: TerminalSession?, onSignal: @escaping (Int32) -> Void) throws(CommandExit) -> Ending {
        // Made below, once onOpen is set: its first element opens the view and starts the keys.
        var watcher: StoreWatcher?
        loop.isDone = { view.isClosed }
        loop.afterPass = {
            watcher?.flush()
            view.render()
        }
        loop.onSignal = { signal in
            onSignal(signal)
            if signal == SIGWINCH { watcher?.layOut() }
        }
        if let session, session.inputFD >= 0 {
            view.onOpen = {
                loop.watch(session.inputFD) {
                    guard let keys = session.readKeys() else {
                        loop.unwatch(session.inputFD)
                        return
                    }
                    for key in keys {
                        if view.press(key) == .quit { loop.stop() } else { _ = watcher?.press(key) }
                    }
                }
            }
        }
        let made = StoreWatcher(store: store, only: only.isEmpty ? nil : Set(only.map { CountdownID($0) }), filter: filter,
                                ticks: ticks, scheduler: scheduler, view: view, terminalRows: session.map { session in { session.size.rows } })
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
            throw CommandExit.storeFailed(error)
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
        let quitEarly = view.quitKey != nil && (try? store.now()).map(made.anyRunning) ?? false
        return Ending(outcome: outcome, quitEarly: quitEarly)
    }
}
