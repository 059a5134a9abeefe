#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore

/// The one run loop: one thread, one timer, one wait.
///
/// A `timerfd` on `CLOCK_BOOTTIME`, armed at the scheduler's earliest tick with an
/// absolute deadline, wakes the loop; signal handlers (CLinux/signals.c) wake the
/// same `poll` through a self-pipe, and a terminating signal also interrupts
/// running Lua code and arms a watchdog that ends the process if the run has not
/// ended within `gracePeriod`; a second timerfd on `CLOCK_REALTIME` with `TFD_TIMER_CANCEL_ON_SET`
/// reports wall-clock changes, so `at` countdowns follow them at once. While
/// nothing is scheduled the loop blocks in `poll` with no timeout: zero wake-ups.
public final class MainLoop {
    /// Why `run` returned.
    public enum Outcome: Equatable, Sendable {
        /// Nothing is left to do.
        case finished
        /// A signal asked the process to end.
        case signal(Int32)
        /// `stop()` was called.
        case stopped
    }

    /// The scheduler whose ticks the loop waits for; a script reloaded on save
    /// (`run --watch`) brings a new one.
    public var scheduler: Scheduler
    /// Maps an instant on the scheduler's clock to the real boot clock (identity
    /// except in fast-forward runs).
    public var realInstant: (Nanoseconds) -> Nanoseconds = { $0 }
    /// Decides whether the run is over; by default when no countdown is active.
    public var isDone: () -> Bool
    /// Extra descriptors to watch (terminal input, say) and their handlers.
    public private(set) var watched: [(fd: Int32, handler: () -> Void)] = []
    /// Signals that do not end the run are passed here (SIGWINCH, SIGCONT, ...).
    /// The default stops the process on SIGTSTP, as if the signal were not caught,
    /// unless the stop was carried out already (see `takeStopRequest`).
    public var onSignal: (Int32) -> Void = { signal in
        if signal == SIGTSTP, MainLoop.takeStopRequest() { raise(SIGSTOP) }
    }
    /// Called after every pass, once the due ticks have fired (a view redraws here).
    public var afterPass: () -> Void = {}

    /// Signals that end the run.
    public static let terminatingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Signals watched without ending the run. SIGTSTP (Ctrl-Z) is caught so the
    /// terminal can be restored before the process stops itself with SIGSTOP.
    public static let observedSignals: [Int32] = [SIGWINCH, SIGCONT, SIGTSTP]

    private let timerFD: Int32
    private let wallWatchFD: Int32
    /// The read end of the signal handlers' self-pipe.
    private let signalFD: Int32
    /// What the timer is set to: nil when disarmed, `expired` when it fired and
    /// is still readable (so `arm` must set it again even to disarm it).
    private var armedAt: Nanoseconds?
    private static let expired = Nanoseconds.min
    private var stopRequested = false

    /// How long the run may take to end after SIGINT, SIGTERM or SIGHUP before
    /// the watchdog restores the terminal and ends the process (128 + signal).
    public static let gracePeriodMilliseconds: Int32 = 300

    /// Wires what a signal handler calls: `interrupt` (makes running Lua code
    /// raise) and `restore` (gives the terminal back). Both must be async-signal-safe.
    public static func setSignalActions(interrupt: (@convention(c) (Int32) -> Void)?, restore: (@convention(c) () -> Int32)?) {
        cdl_set_interrupter(interrupt)
        cdl_set_restorer(restore)
    }

    /// Wires what Ctrl-Z uses when the loop is busy: `pause` (from the SIGTSTP
    /// handler: makes running Lua code stop the process at its next instruction)
    /// and `suspend` (gives the terminal back from any thread); with `suspend` set,
    /// the watchdog also stops the process after 0.5 s when nothing else did. Both
    /// must be async-signal-safe.
    public static func setStopActions(pause: (@convention(c) ((@convention(c) () -> Int32)?) -> Void)?,
                                      suspend: (@convention(c) () -> Int32)?) {
        cdl_set_stop_actions(pause, suspend)
    }

    /// Claims the pending Ctrl-Z: true when the caller is to stop the process (after
    /// giving the terminal back), false when running code or the watchdog stopped
    /// it already. One SIGTSTP, one stop.
    public static func takeStopRequest() -> Bool { cdl_take_stop_request() != 0 }

    /// The first terminating signal received (SIGINT, SIGTERM, SIGHUP), or nil.
    public static var terminatingSignal: Int32? {
        let s = cdl_terminating_signal()
        return s == 0 ? nil : s
    }

    /// Ends the process (terminal restored, `message` on stderr, exit `code`) unless
    /// `disarmWatchdog` comes first within `milliseconds`. For shutdown work that
    /// nothing can interrupt (Lua finalizers run with hooks off). A signal's own
    /// deadline, once running, is kept.
    public static func armWatchdog(milliseconds: Int32, code: Int32, message: StaticString) {
        cdl_watchdog_arm(milliseconds, code, UnsafeRawPointer(message.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    public static func disarmWatchdog() { cdl_watchdog_disarm() }

    /// Ends the run as a terminating signal does (wakes the loop, interrupts Lua
    /// code, arms the watchdog, which exits with `code`), for a cause that is no
    /// signal: output that cannot be written (`cause` SIGPIPE, which
    /// `terminatingSignal` then gives). Does nothing before the signal actions are
    /// installed or once the run is ending. Not for signal handlers: call it on the
    /// thread that writes.
    public static func endRun(cause: Int32, code: Int32) {
        cdl_end_run(cause, code)
    }

    /// Starts a timer on the calling thread's CPU-time clock that calls `check`
    /// from a signal handler every `periodNanoseconds` of that thread's CPU time
    /// (none while it sleeps); when `check` returns nonzero, the process ends as
    /// the watchdog ends it (terminal restored, `message` on stderr, exit `code`).
    /// Call it from the thread that runs Lua, once. Throws when the system refuses.
    public static func startCPUTimer(periodNanoseconds: Int64, check: @convention(c) () -> Int32, code: Int32, message: String) throws(LoopError) {
        // The handler may read it at any time until the process ends: never freed.
        let text = strdup(message)
        if cdl_cpu_timer_start(periodNanoseconds, check, code, text) != 0 {
            throw LoopError(message: "cannot create the CPU-time timer: \(String(cString: strerror(errno)))")
        }
    }

    /// Wake-ups of the loop so far (benchmarks read it).
    public private(set) var wakeups = 0

    /// How late a wake-up may come to gather more ticks into one pass, when the
    /// loop is busy (woken again within `busyInterval`). Thousands of countdowns
    /// started at different moments tick at as many different instants; each
    /// wake-up costs two system calls, a context switch and poll's wait-queue
    /// work, so a busy loop lets them gather: 1 ms is 1% of the shortest interval
    /// a countdown may tick at (0.1 s), and a tick still reports its own aligned
    /// instant and remaining time. A loop that wakes rarely (one countdown, say)
    /// never waits: its ticks keep the timer's own accuracy.
    public var coalescingWindow: Nanoseconds = 1_000_000
    public var busyInterval: Nanoseconds = 2_000_000
    private var lastWake: Nanoseconds = 0
    /// Real time, for measuring wake-ups even when the scheduler's clock is scaled.
    private let realClock = BootClock()
    private var busy = false

    public init(scheduler: Scheduler) throws(LoopError) {
        self.scheduler = scheduler
        self.isDone = { [unowned scheduler] in scheduler.activeCount == 0 }
        // Handlers, not a blocked mask: a signal is seen whatever the thread is doing,
        // and children (exec, os.execute, io.popen) start with an empty mask.
        cdl_set_grace_ms(Self.gracePeriodMilliseconds)
        signalFD = cdl_signals_install()
        timerFD = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        wallWatchFD = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard signalFD >= 0, timerFD >= 0 else {
            throw LoopError(message: "cannot create the run loop's timer or signal descriptor: \(String(cString: strerror(errno)))")
        }
        armWallWatch()
    }

    deinit {
        // The self-pipe and the handlers stay for the process's life.
        close(timerFD)
        if wallWatchFD >= 0 { close(wallWatchFD) }
    }

    /// Watches `fd` for input; `handler` runs on the loop's thread when it is readable.
    public func watch(_ fd: Int32, handler: @escaping () -> Void) {
        watched.append((fd, handler))
    }

    public func unwatch(_ fd: Int32) {
        watched.removeAll { $0.fd == fd }
    }

    /// Ends `run` after the current pass.
    public func stop() { stopRequested = true }

    /// Runs until `isDone`, a terminating signal, or `stop()`.
    public func run() -> Outcome {
        stopRequested = false
        if let signal = Self.terminatingSignal { return .signal(signal) }
        // Ticks that came due while the script loaded fire first.
        scheduler.runDue()
        afterPass()
        var fds: [pollfd] = []
        while true {
            if let signal = Self.terminatingSignal { return .signal(signal) }
            if stopRequested { return .stopped }
            if isDone() { return .finished }
            arm(scheduler.nextDue(), slack: busy ? coalescingWindow : 0)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0))
            if wallWatchFD >= 0 { fds.append(pollfd(fd: wallWatchFD, events: Int16(POLLIN), revents: 0)) }
            for w in watched { fds.append(pollfd(fd: w.fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            wakeups += 1
            let wake = realClock.bootNow()
            busy = wake - lastWake < busyInterval
            lastWake = wake
            if ready < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if fds[0].revents != 0, let signal = drainSignals() {
                return .signal(signal)
            }
            if fds[1].revents != 0 {
                // No read: the next arm() sets the timer again (or disarms it), and
                // timerfd_settime clears the expiration that made it readable.
                armedAt = Self.expired
            }
            if wallWatchFD >= 0, fds[2].revents != 0 {
                // The wall clock was set: re-arm the watch; runDue re-bases `at` countdowns.
                armWallWatch()
            }
            scheduler.runDue()
            let base = wallWatchFD >= 0 ? 3 : 2
            for (i, w) in watched.enumerated() where base + i < fds.count && fds[base + i].revents != 0 {
                w.handler()
            }
            afterPass()
        }
    }

    /// Empties the self-pipe and passes on the observed signals; returns the
    /// terminating one, if any.
    private func drainSignals() -> Int32? {
        let observed = cdl_take_observed_signals()
        if let terminating = Self.terminatingSignal { return terminating }
        for signal in Self.observedSignals where observed & (UInt64(1) << UInt64(signal)) != 0 {
            onSignal(signal)
        }
        return nil
    }

    /// Re-arms the tick timer only when the earliest tick changed, and always after
    /// it fired.
    private func arm(_ due: Nanoseconds?, slack: Nanoseconds) {
        let target = due.map { realInstant($0) + slack }
        guard target != armedAt else { return }
        armedAt = target
        var spec = itimerspec()
        if let target {
            // An absolute deadline of 0 would disarm the timer; 1 ns means "now".
            let t = max(1, target)
            spec.it_value = timespec(tv_sec: Int(t / 1_000_000_000), tv_nsec: Int(t % 1_000_000_000))
        }
        timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    private func armWallWatch() {
        guard wallWatchFD >= 0 else { return }
        var expirations: UInt64 = 0
        _ = read(wallWatchFD, &expirations, 8)
        var spec = itimerspec()
        // Far in the future: it never expires, it only reports clock changes.
        spec.it_value = timespec(tv_sec: Int(Int32.max) * 4, tv_nsec: 0)
        timerfd_settime(wallWatchFD, Int32(TFD_TIMER_ABSTIME) | cdl_timer_cancel_on_set(), &spec, nil)
    }
}

public struct LoopError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
