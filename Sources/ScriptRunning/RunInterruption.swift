import CommandEnding
import EventLoop
import LuaHost
import TerminalView

/// How a run is stopped from outside while Lua code runs: signals, Ctrl-Z and
/// the CPU-time limit per callback (see docs/hardening.md, "Guarantees").
enum RunInterruption {
    /// Signals interrupt running Lua code, and whatever path ends the process
    /// gives the terminal back first. Ctrl-Z stops the process within 0.5 s even
    /// while a hook runs; after `fg` the hook goes on where it was.
    static func installSignalActions() {
        MainLoop.setSignalActions(interrupt: ScriptInterruption.interruptFromSignal, restore: TerminalSession.restoreFromSignal)
        MainLoop.setStopActions(pause: ScriptInterruption.pauseFromSignal, suspend: TerminalSession.suspendFromSignal)
    }

    /// The CPU-time limit per callback (`--cpu-limit`, 0: none) reaches what no
    /// hook does (finalizers, loops in C): a timer on this thread's CPU clock,
    /// silent while it sleeps.
    static func startCPULimit(seconds: Double) {
        guard seconds > 0 else { return }
        startCPUTimer(period: ScriptInterruption.configureCPULimit(seconds: seconds), command: "cdscript",
                      ending: "a callback ran for more than \(ScriptRun.seconds(seconds)) s of CPU time", without: "callbacks run")
    }

    /// `cdscript test`'s CPU-time limit per test (`--cpu-limit`, 0: none): the same
    /// timer, silent until a test runs past it, so no test pays for it (an
    /// instruction budget's count hook halves the speed of tight loops).
    static func startTestCPULimit(seconds: Double) {
        guard seconds > 0 else { return }
        let limit = ScriptRun.seconds(seconds)
        let period = ScriptInterruption.configureCPULimit(
            seconds: seconds, message: "CPU time limit exceeded: the test ran for more than \(limit) s of CPU time (raise it with --cpu-limit SECONDS, 0 for none)")
        startCPUTimer(period: period, command: "cdscript test",
                      ending: "a test ran for more than \(limit) s of CPU time", without: "tests run")
    }

    /// The timer both limits start: past the limit, when the hook could not stop
    /// what ran, `COMMAND: ENDING (--cpu-limit) and could not be stopped ...` and exit 1.
    private static func startCPUTimer(period: Int64, command: String, ending: String, without: String) {
        let message = "\(command): \(ending) (--cpu-limit) and could not be stopped (a finalizer or a loop in C); the run was ended\n"
        do {
            try MainLoop.startCPUTimer(periodNanoseconds: period, check: ScriptInterruption.cpuLimitCheck,
                                       code: ExitStatus.hookError.rawValue, message: message)
        } catch {
            printError("\(command): \(error); \(without) without a CPU-time limit")
        }
    }
}
