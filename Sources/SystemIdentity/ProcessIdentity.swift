#if canImport(Glibc)
import Glibc
#endif

/// A process named so that another process can tell whether it still runs:
/// `bootid:pid:starttime`. A pid alone is reused; the boot id and the start
/// time (field 22 of `/proc/PID/stat`, in clock ticks since boot) make it
/// unique. The Redis outage journal names the owners of its rows this way, and
/// the SQLite store the processes that have it open for writing.
public enum ProcessIdentity {
    /// This process.
    public static let current: String = identity(of: getpid()) ?? "unknown:\(getpid())"

    /// `bootid:pid:starttime`, or nil when no such process runs.
    public static func identity(of pid: pid_t) -> String? {
        guard let stat = ProcFile.contents(of: "/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name; the start time is field 22 of the whole line.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return "\(BootID.current ?? "?"):\(pid):\(fields[19])"
    }

    /// True when the process named by `owner` still runs.
    public static func isRunning(_ owner: String) -> Bool {
        let parts = owner.split(separator: ":")
        guard parts.count == 3, let pid = pid_t(parts[1]) else { return false }
        return identity(of: pid) == owner
    }

    /// The pid in `owner`, for messages.
    public static func pid(in owner: String) -> String {
        let parts = owner.split(separator: ":")
        return parts.count == 3 ? String(parts[1]) : owner
    }
}
