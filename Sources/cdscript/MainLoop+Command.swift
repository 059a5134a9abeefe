import ArgumentParser
import CountdownCore
import EventLoop

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
}
