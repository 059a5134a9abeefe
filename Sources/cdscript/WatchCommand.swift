#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CountdownCore
import CountdownStore
import EventLoop
import Foundation
import TerminalView

/// `cdscript watch [ID...]`: a live view of stored countdowns, following changes
/// made by any process (or machine, with Redis) as they are committed.
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show stored countdowns live (all, or the ids given), following changes made anywhere. q or Ctrl-C ends it."
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var viewOptions: ViewOptions

    @Argument(help: "Ids to show (default: every stored countdown).", completion: .storedIDs)
    var ids: [String] = []

    func run() throws {
        OutputContract.endRunOnFailure()
        let store = try storeOptions.openShared()
        let scheduler = Scheduler(clock: BootClock())
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        let (controller, session) = viewOptions.makeView()
        defer { session?.end() }
        loop.isDone = { controller.isClosed }
        loop.afterPass = { controller.render() }
        loop.onSignal = { signal in ViewOptions.follow(signal, session: session, controller: controller) }
        if let session, session.inputFD >= 0 {
            controller.onOpen = {
                loop.watch(session.inputFD) {
                    guard let keys = session.readKeys() else {
                        loop.unwatch(session.inputFD)
                        return
                    }
                    for key in keys where controller.press(key) == .quit { loop.stop() }
                }
            }
        }
        // After onOpen is set: the first element opens the view and starts the keys.
        let watcher = StoreWatcher(store: store, only: ids.isEmpty ? nil : Set(ids.map { CountdownID($0) }), scheduler: scheduler, view: controller)
        scheduler.delegate = watcher
        let feed: CountdownChangeFeed
        do {
            feed = try store.changeFeed(timers: loop)
            try watcher.refresh(.unknown)
        } catch {
            session?.end()
            throw failOnStore(error)
        }
        loop.follow(feed) { changes in
            do {
                try watcher.refresh(changes)
            } catch {
                watcher.showError("\(error)")
            }
        }
        let outcome = loop.run()
        let quitEarly = controller.quitKey != nil && scheduler.activeCount > 0
        session?.end()
        if case .signal(let signal) = outcome { try RunCommand.exit(afterSignal: signal) }
        try OutputContract.check()
        if controller.quitKey == "ctrl-c" { throw ExitCode(ExitStatus.interrupted.rawValue) }
        // As for `run`: 0 only when every countdown shown had ended.
        if quitEarly { throw ExitCode(ExitStatus.quitEarly.rawValue) }
    }
}

/// Keeps one label per stored countdown, ticking on this process's scheduler
/// aligned to the stored deadline, and re-reads the store when it changes.
final class StoreWatcher: SchedulerDelegate {
    let store: SharedStore
    /// Keyed by bytes: ids that differ only in Unicode normal form are two countdowns.
    let only: Set<CountdownID>?
    let scheduler: Scheduler
    let view: ViewController
    private var shown: [CountdownID: StoredCountdown] = [:]
    private var keys: [CountdownID: CountdownKey] = [:]
    private var idsByKey: [CountdownKey: String] = [:]
    private var reportedError: String?
    /// Ids shown as unreadable, so that their removal shows too.
    private var unreadableIDs: Set<CountdownID> = []

    init(store: SharedStore, only: Set<CountdownID>?, scheduler: Scheduler, view: ViewController) {
        self.store = store
        self.only = only
        self.scheduler = scheduler
        self.view = view
        if !view.isPlain {
            _ = try? view.add(.label, id: " header", fields: [("text", .string("cdscript watch: \(store.location)")), ("style", .string("bold"))])
        }
    }

    /// Reads the countdowns that may have changed and shows what differs.
    func refresh(_ changes: CountdownChanges) throws {
        guard changes != .none else { return }
        let listing = store.exists ? try store.persistence.listing() : StoredCountdownListing(countdowns: [])
        let records = listing.countdowns
        let now = try store.now()
        var seen: Set<CountdownID> = []
        // An unreadable record is named (once) and shown as such; the others go on.
        let unreadable = listing.unreadable.filter { only?.contains(CountdownID($0.id)) ?? true }
        if unreadable.isEmpty { reportedError = nil } else { showError(unreadable.map(\.description).joined(separator: "\ncdscript: ")) }
        for bad in unreadable {
            let id = CountdownID(bad.id)
            seen.insert(id)
            if let key = keys.removeValue(forKey: id) {
                idsByKey[key] = nil
                scheduler.cancel(key, reason: .stopped)
            }
            shown[id] = nil
            show(bad.id, "unreadable", nil)
        }
        for record in records where only?.contains(CountdownID(record.id)) ?? true {
            let id = CountdownID(record.id)
            seen.insert(id)
            guard changes.contains(record.id), shown[id] != record else { continue }
            shown[id] = record
            restart(record, now: now)
        }
        let wasUnreadable = unreadableIDs
        unreadableIDs = Set(unreadable.map { CountdownID($0.id) })
        for countdownID in (only ?? Set(shown.keys).union(wasUnreadable)).sorted() where !seen.contains(countdownID) {
            let id = countdownID.string
            if let key = keys.removeValue(forKey: countdownID) {
                idsByKey[key] = nil
                scheduler.cancel(key, reason: .stopped)
            }
            if shown.removeValue(forKey: countdownID) != nil || wasUnreadable.contains(countdownID) || only != nil {
                show(id, only != nil && view.element(elementID(id)) == nil ? "not stored" : "removed", nil)
            }
        }
    }

    func showError(_ message: String) {
        guard reportedError != message else { return }
        reportedError = message
        printError("cdscript: \(message)")
    }

    private func restart(_ record: StoredCountdown, now: StoreInstant) {
        if let key = keys.removeValue(forKey: CountdownID(record.id)) {
            idsByKey[key] = nil
            scheduler.cancel(key, reason: .stopped)
        }
        switch record.resumption(at: now) {
        case .finished:
            show(record.id, "finished", 0)
        case .paused(let remaining) where remaining < 0:
            show(record.id, "paused", nil, past: -remaining)
        case .paused(let remaining):
            show(record.id, "paused", remaining)
        case .running(let deadline, remaining: _):
            let key = scheduler.start(CountdownSpec(id: record.id, deadline: deadline, every: record.every, length: record.total))
            keys[CountdownID(record.id)] = key
            idsByKey[key] = record.id
            // An overtime countdown runs on past its end, as in the processes that run it.
            if record.overtime { scheduler.allowOvertime(key, endPassed: record.isPastEnd(at: now)) }
            scheduler.announce(key)
        }
    }

    func countdownDidTick(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        if tick.remaining < 0 { show(id, "overtime", nil, past: -tick.remaining) } else { show(id, "running", tick.remaining) }
    }

    func countdownDidPassEnd(_ tick: Tick) {
        guard let id = idsByKey[tick.key] else { return }
        show(id, "overtime", nil, past: 0)
    }

    func countdownDidEnd(_ tick: Tick, reason: EndReason) {
        guard reason == .finished, let id = idsByKey.removeValue(forKey: tick.key) else { return }
        keys[CountdownID(id)] = nil
        show(id, "finished", 0)
    }

    private func elementID(_ id: String) -> String { VisibleText.escaped(id) }

    /// `past`: the time past the end of an overtime countdown, shown as `+time`.
    private func show(_ id: String, _ state: String, _ remaining: Nanoseconds?, past: Nanoseconds? = nil) {
        let time = past.map { "  +" + CountdownListing.clock($0) } ?? remaining.map { "  " + CountdownListing.clock($0) } ?? ""
        let text = view.isPlain ? "\(state)\(time)" : "\(VisibleText.escaped(id))  \(state)\(time)"
        let element = elementID(id)
        if view.element(element) == nil {
            _ = try? view.add(.label, id: element, fields: [("text", .string(text))])
        } else {
            try? view.set(element, fields: [("text", .string(text))])
        }
    }
}
