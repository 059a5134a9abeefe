import ArgumentParser
import CountdownCore
import EventLoop
import TerminalView
import StoreViews

extension MainLoop {
    /// The run loop for a command, or exit 5 with the system error on stderr.
    static func forCommand(scheduler: Scheduler) throws -> MainLoop {
        do {
            return try MainLoop(scheduler: scheduler)
        } catch {
            printError("cdscript: \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
    }

    /// What the script wrote with io.write (stdio's, not ours) goes out at the end
    /// of each pass, after the view's redraw: a failure ends the run at the end of
    /// the pass that made it.
    func flushStandardOutputAfterEachPass() {
        let render = afterPass
        afterPass = {
            render()
            StandardOutput.flush()
        }
    }
}
