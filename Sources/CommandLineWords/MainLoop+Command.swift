import ArgumentParser
import CommandEnding
import CountdownCore
import EventLoop

extension MainLoop {
    /// The run loop for a command, or exit 5 with the system error on stderr.
    public static func forCommand(scheduler: Scheduler) throws -> MainLoop {
        try exitingAsCommand { try MainLoop.forRun(scheduler: scheduler) }
    }
}
