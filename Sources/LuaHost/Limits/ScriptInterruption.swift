import CLuaShim

/// How running Lua code is stopped from outside: by a terminating signal, by
/// SIGTSTP, or by the CPU-time limit per callback. The state behind these lives
/// in C (interrupt.c, limits.c), where signal handlers can reach it; these are
/// the handlers' entry points, all async-signal-safe.
public enum ScriptInterruption {
    /// For a signal handler: makes the Lua code running now raise "interrupted"
    /// at its next instruction, in whichever coroutine it runs.
    public static let interruptFromSignal: @convention(c) (Int32) -> Void = cd_interrupt

    /// For the SIGTSTP handler: while a callback runs, its Lua code calls the
    /// function it is given at its next instruction (which gives the terminal back
    /// and stops the process) and, once continued, goes on where it was. Between
    /// callbacks it does nothing: the run loop stops the process itself.
    public static let pauseFromSignal: @convention(c) ((@convention(c) () -> Int32)?) -> Void = cd_pause

    /// Sets the CPU-time limit per callback to `seconds` (> 0) and returns the
    /// period of the CPU-time timer that must call `cpuLimitCheck` from its signal
    /// handler: every second of CPU, or every `seconds` when that is shorter. A
    /// callback is stopped at the first fire that finds it running for `seconds`
    /// or more (whole periods, rounded up), so after at most one period more of CPU.
    /// `message`, when given, replaces the error a stopped callback raises
    /// (which by default names `run`'s `--cpu-limit`).
    public static func configureCPULimit(seconds: Double, message: String? = nil) -> Int64 {
        let period = min(seconds, 1)
        let periods = Int32(min((seconds / period).rounded(.up), Double(Int32.max)))
        cd_cpu_limit_configure(periods, seconds)
        if let message { cd_cpu_limit_set_message(message) }
        return Int64(period * 1e9)
    }

    /// For the CPU-time timer's signal handler: stops the callback that ran past
    /// the limit; nonzero when it could not be stopped at the last fire and the
    /// process must end.
    public static let cpuLimitCheck: @convention(c) () -> Int32 = cd_cpu_limit_check
}
