import CountdownCore
import EventLoop
import TerminalView

extension MainLoop {
    /// The run loop for a command, or exit 5 with the system error on stderr.
    public static func forRun(scheduler: Scheduler) throws(CommandExit) -> MainLoop {
        do {
            return try MainLoop(scheduler: scheduler)
        } catch {
            printError("cdscript: \(error)")
            throw CommandExit(.systemError)
        }
    }

    /// What the script wrote with io.write (stdio's, not ours) goes out at the end
    /// of each pass, after the view's redraw: a failure ends the run at the end of
    /// the pass that made it.
    public func flushStandardOutputAfterEachPass() {
        let render = afterPass
        afterPass = {
            render()
            StandardOutput.flush()
        }
    }
}
