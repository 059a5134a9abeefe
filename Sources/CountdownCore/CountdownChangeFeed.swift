/// Which stored countdowns changed, as a change feed reports it.
public enum CountdownChanges: Equatable, Sendable {
    /// Nothing changed (the wake-up was this process's own write, say).
    case none
    /// These ids may have changed (keyed by bytes: see `CountdownID`).
    case ids(Set<CountdownID>)
    /// Something changed; the feed cannot tell what (re-read what you hold).
    case unknown

    /// True when `id` may have changed.
    public func contains(_ id: String) -> Bool {
        switch self {
        case .none: return false
        case .ids(let ids): return ids.contains(CountdownID(id))
        case .unknown: return true
        }
    }

    /// Both reports in one.
    public func merged(with other: CountdownChanges) -> CountdownChanges {
        switch (self, other) {
        case (.none, let x), (let x, .none): return x
        case (.unknown, _), (_, .unknown): return .unknown
        case (.ids(let a), .ids(let b)): return .ids(a.union(b))
        }
    }
}

/// Tells a process that other processes (or machines) changed stored countdowns,
/// without polling: the adapter hands the run loop descriptors that become
/// readable when the store changes (inotify for SQLite, a subscriber connection
/// for Redis), and reports what changed when one of them is.
///
/// The Lua host only sees this seam; it re-reads the countdowns it holds through
/// `CountdownStoreBackend` and applies the difference. Changes a process made
/// itself are already applied: a feed may report them, and re-reading finds
/// nothing to do.
public protocol CountdownChangeFeed: AnyObject {
    /// Descriptors to poll for reading. They may change after `drain()` (a
    /// reconnection, a directory that appeared), so callers read them again then.
    var descriptors: [Int32] { get }
    /// Consumes what is pending on the descriptors and says which countdowns may
    /// have changed. Never blocks.
    func drain() -> CountdownChanges
}
