#if canImport(Glibc)
import Glibc
#endif
import CountdownCore

/// A stored countdown as `cdscript status` and `watch --bar` show it at one
/// instant: the time left as the timer's view shows it (the value of its last
/// whole-second tick, so 4:59.3 left shows as 5:00, as the view still does), its
/// state, how far it has come, and where it ends.
struct ShownCountdown: Equatable {
    let id: String
    /// running, paused, overtime or finished as of the instant it was read
    /// (`StoredCountdown.shownState`: a running one whose end passed is finished,
    /// or overtime when it was started with `overtime`).
    let state: StoredCountdown.ShownState
    /// The remaining time rounded up to a whole second: what the view shows.
    let shownRemaining: Nanoseconds
    /// The exact remaining time, never negative.
    let remaining: Nanoseconds
    /// The time past the end of an overtime countdown (running past it, or
    /// paused past it); 0 before the end and for any other countdown.
    let pastEnd: Nanoseconds
    /// The whole length, appends included.
    let total: Nanoseconds
    /// The end on the wall clock (UTC ns); nil while paused.
    let wallEnd: Nanoseconds?
    /// The stored title; nil when it has none.
    var title: String? = nil

    init(_ record: StoredCountdown, at now: StoreInstant) {
        id = record.id
        state = record.shownState(at: now)
        remaining = state == .finished ? 0 : record.remaining(at: now)
        shownRemaining = Self.roundedUpToSecond(remaining)
        pastEnd = record.timePastEnd(at: now)
        total = record.total
        wallEnd = state == .paused ? nil : record.wallDeadline(at: now)
        title = record.title
    }

    /// From a tick of a running countdown: `timeLeft` below zero is the time
    /// past the end of an overtime countdown.
    init(id: String, state: StoredCountdown.ShownState, timeLeft: Nanoseconds, total: Nanoseconds, wallEnd: Nanoseconds?) {
        self.id = id
        self.state = state
        remaining = max(0, timeLeft)
        shownRemaining = Self.roundedUpToSecond(remaining)
        pastEnd = max(0, -timeLeft)
        self.total = total
        self.wallEnd = wallEnd
    }

    /// Past its end and not finished: an overtime countdown running (or paused) past it.
    var isPastEnd: Bool { state == .overtime || pastEnd > 0 }

    /// The time past the end as the timer's view shows it: the value of its last
    /// whole-second tick past the end (2.9 s past it shows 2).
    var shownPastEnd: Nanoseconds { pastEnd - pastEnd % Time.nanosecondsPerSecond }

    static func roundedUpToSecond(_ ns: Nanoseconds) -> Nanoseconds {
        let second = Time.nanosecondsPerSecond
        guard ns > 0 else { return 0 }
        let (whole, part) = ns.quotientAndRemainder(dividingBy: second)
        return (part == 0 ? whole : whole + 1) * second
    }

    /// Elapsed over the length, 0 to 1 (1 once finished or past the end).
    var progress: Double {
        guard state != .finished, !isPastEnd else { return 1 }
        guard total > 0 else { return 0 }
        return min(1, max(0, Double(total - remaining) / Double(total)))
    }

    /// Whole percent done, rounded down (a bar at 100 % means its end has come:
    /// finished, or past it in overtime).
    var percent: Int {
        state == .finished || isPastEnd ? 100 : min(99, Int(progress * 100))
    }

    /// The time left as the timer's view draws it: `2d 01:02:03`, `1:02:03`, `4:05`,
    /// `45`; past the end of an overtime countdown, the time past it as the view
    /// counts it up (`+0:02`, `+1:05`, `+1:02:03`).
    var left: String { isPastEnd ? "+" + Self.overtimeClockText(shownPastEnd) : Self.clockText(shownRemaining) }

    /// The time past the end, written as `left` writes the time left (`2`, `1:05`;
    /// `0` before the end): a figure for scripts, where `left` is what the view shows.
    var overtimeText: String { Self.clockText(shownPastEnd) }

    /// One sign for the state, so that a bar's text tells them apart without
    /// colour: running, paused, overtime, finished.
    /// (A switch, not a dictionary: `status` runs every second, and a dictionary
    /// keyed by this enum costs its first user a scan of every conformance in the
    /// binary, about 0.24 million instructions, to learn that the key is Hashable.)
    var icon: String {
        switch state {
        case .running: "⏲"
        case .paused: "⏸"
        case .overtime: "⏰"
        case .finished: "⏹"
        }
    }

    // Parsed once; valid patterns (StatusBarTests check what they render).
    static let dayPattern = try? FormatPattern("{d}d {hh}:{mm}:{ss}")
    static let hourPattern = try? FormatPattern("{h}:{mm}:{ss}")
    static let minutePattern = try? FormatPattern("{m}:{ss}")
    static let secondPattern = try? FormatPattern("{s}")

    /// The timer's `clock_text` (BuiltinScripts/timer.lua) at whole seconds
    /// (ClockTextTests hold the two to one text).
    static func clockText(_ ns: Nanoseconds) -> String {
        let second = Time.nanosecondsPerSecond
        let pattern = ns >= 86_400 * second ? dayPattern : ns >= 3_600 * second ? hourPattern : ns >= 60 * second ? minutePattern : secondPattern
        return pattern?.render(ns) ?? String(ns / second)
    }

    /// The timer's `overtime_text` at whole seconds, without its `+`: as `clockText`,
    /// but minutes are shown under a minute too (`0:02`).
    static func overtimeClockText(_ ns: Nanoseconds) -> String {
        ns >= 3_600 * Time.nanosecondsPerSecond ? clockText(ns) : minutePattern?.render(ns) ?? clockText(ns)
    }

    /// The end in local time: `17:05:30` when it is today, `2026-12-03 17:05:30`
    /// otherwise; `-` while paused. Read with localtime_r: Foundation's time zone
    /// costs more than the rest of a `status` call.
    func endText(today now: Nanoseconds) -> String {
        guard let wallEnd else { return "-" }
        var endSeconds = time_t(wallEnd / Time.nanosecondsPerSecond)
        var nowSeconds = time_t(now / Time.nanosecondsPerSecond)
        var end = tm()
        var current = tm()
        localtime_r(&endSeconds, &end)
        localtime_r(&nowSeconds, &current)
        let clock = "\(Self.twoDigits(end.tm_hour)):\(Self.twoDigits(end.tm_min)):\(Self.twoDigits(end.tm_sec))"
        if end.tm_year == current.tm_year && end.tm_yday == current.tm_yday { return clock }
        return "\(end.tm_year + 1900)-\(Self.twoDigits(end.tm_mon + 1))-\(Self.twoDigits(end.tm_mday)) \(clock)"
    }

    private static func twoDigits(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Soonest end first: overtime countdowns (their end has come; longest past
    /// it first), running ones by time left, then paused ones by time left, then
    /// finished ones; ids break ties.
    static func soonestFirst(_ a: ShownCountdown, _ b: ShownCountdown) -> Bool {
        func rank(_ state: StoredCountdown.ShownState) -> Int {
            switch state {
            case .overtime: return 0
            case .running: return 1
            case .paused: return 2
            case .finished: return 3
            }
        }
        if rank(a.state) != rank(b.state) { return rank(a.state) < rank(b.state) }
        if a.pastEnd != b.pastEnd { return a.pastEnd > b.pastEnd }
        if a.remaining != b.remaining { return a.remaining < b.remaining }
        return Array(a.id.utf8).lexicographicallyPrecedes(Array(b.id.utf8))
    }
}
