import ArgumentParser
import CountdownCore
import EventLoop
import StoreViews
import TerminalView
import CommandLineWords
import CommandEnding

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
        if let bar = barOptions.bar { return try runBar(bar) }
        OutputContract.endRunOnFailure()
        let store = try storeOptions.openShared()
        let scheduler = Scheduler(clock: BootClock())
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        let (controller, session) = viewOptions.makeView()
        defer { session?.end() }
        let ending = try exitingAsCommand {
            try StoreWatch.run(store: store, only: ids, filter: selection.filter, ticks: selection.ticks, scheduler: scheduler, loop: loop,
                               view: controller, session: session) { ViewOptions.follow($0, session: session, controller: controller) }
        }
        session?.end()
        if case .signal(let signal) = ending.outcome { try RunCommand.exit(afterSignal: signal) }
        try OutputContract.check()
        if controller.quitKey == "ctrl-c" { throw ExitCode(ExitStatus.interrupted.rawValue) }
        // As for `run`: 0 only when every countdown shown had ended.
        if ending.quitEarly { throw ExitCode(ExitStatus.quitEarly.rawValue) }
    }

    /// `watch --bar`: runs until a signal ends it or stdout goes away.
    private func runBar(_ bar: BarProtocol) throws {
        OutputContract.endRunOnFailure()
        let store = try storeOptions.openShared()
        let scheduler = Scheduler(clock: BootClock())
        let loop = try MainLoop.forCommand(scheduler: scheduler)
        // validate() has read the format and the seconds.
        let watch = BarWatch(store: store, only: ids.isEmpty ? nil : ids, scheduler: scheduler, bar: bar, format: try StatusFormat(barOptions.format),
                             separator: barOptions.separator, critical: Time.nanoseconds(fromSeconds: barOptions.critical) ?? 0)
        scheduler.delegate = watch
        let outcome = try exitingAsCommand { try watch.follow(on: loop) }
        if case .signal(let signal) = outcome { try RunCommand.exit(afterSignal: signal) }
        try OutputContract.check()
    }
}
