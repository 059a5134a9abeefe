import CommandEnding
import CountdownCore
import EventLoop
import LuaHost

/// A run once its parts are wired (`ScriptRun.run(_:load:)`), in its two phases: the
/// script's main chunk, then the loop. Each phase ends by giving back how the run
/// ended (`RunEnding`), having closed the Lua state, given the terminal back and
/// sent what the store holds, in that order on every path.
public struct ScriptRun {
    let live: LiveHost
    let loop: MainLoop
    let view: ViewRuntime
    let store: RunStore
    let coverage: RunCoverage?

    /// Runs what `load` loads into the host (the script's main chunk, `-e`
    /// statements first); how the run ended when it ended there, nil when the loop
    /// is to run.
    func load(_ load: (LuaHost) -> ScriptFailure?) -> RunEnding? {
        let host = live.host
        let failure = load(host)
        if let signal = MainLoop.terminatingSignal {
            // Interrupted while the main chunk ran: end as for a signal in the loop.
            Self.closeState(of: host)
            view.finish()
            // What could not reach the store is reported (and kept) on every path.
            let changesLost = !store.finish(withinMilliseconds: 100)
            return RunEnding(signal: signal, changesLost: changesLost, output: OutputContract.failure())
        }
        guard let failure else { return nil }
        let counted = coverage?.collect()
        view.finish()
        let changesLost = !store.finish(withinMilliseconds: 2_000)
        let coverageFailure = counted.flatMap { coverage?.write($0) }
        if coverageFailure == nil { Self.report(failure) }
        return RunEnding(coverageFailure: coverageFailure, scriptFailure: failure.kind, changesLost: changesLost)
    }

    /// Runs the loop until no countdown is active, the view closes or a signal
    /// ends it; with `reloader` (--watch) the script is reloaded on save meanwhile.
    func runLoop(reloader: ScriptReloader?) -> RunEnding {
        let outcome = loop.run()
        // Countdowns the user left running with `q`: counted before the state closes.
        let quitEarly = view.controller.quitKey != nil && loop.scheduler.activeCount > 0
        let counted = coverage?.collect()
        withExtendedLifetime(reloader) {}
        Self.closeState(of: live.host)
        view.finish()
        // Bounded: after a signal the watchdog ends the process 0.3 s after it.
        // First: nothing comes between the run and its store.
        let budget = outcome == .finished || outcome == .stopped ? 2_000 : 100
        let changesLost = !store.finish(withinMilliseconds: budget)
        var ending = RunEnding(coverageFailure: counted.flatMap { coverage?.write($0) }, changesLost: changesLost)
        if case .signal(let signal) = outcome { ending.signal = signal }
        ending.output = OutputContract.failure()
        ending.quitWithCtrlC = view.controller.quitKey == "ctrl-c"
        ending.quitEarly = quitEarly
        ending.spawnFailure = live.host.plugins.spawnFailure
        ending.endActionStatus = live.host.store.endActionStatus
        ending.hookErrors = live.hookErrorCount > 0
        ending.storeFailed = live.host.store.errorCount > 0 || store.unusable
        return ending
    }

    /// The main chunk's failure, on stderr.
    private static func report(_ failure: ScriptFailure) {
        switch failure.kind {
        case .unreadable: printError("cdscript: \(failure.message)")
        case .syntax: printError(failure.message)
        case .runtime: printError("cdscript: error: \(VisibleText.escapedKeepingLayout(failure.message))")
        }
    }
}
