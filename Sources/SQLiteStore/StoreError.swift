import CountdownCore

/// Why the countdown store cannot be used. Every message names the file and says
/// that it was left as it is.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable, Equatable {
        /// The file or its directory cannot be opened or created.
        case unavailable
        /// The file is not an SQLite database, or it is damaged.
        case corrupt
        /// A newer cdscript wrote it.
        case newerSchema
        /// A read or write failed after the store was opened.
        case failed
        /// One countdown's row cannot be read; the others can (see `unreadable`).
        case unreadableCountdown
    }

    public let kind: Kind
    public let path: String
    public let reason: String
    /// The row that cannot be read, for `.unreadableCountdown`.
    public let unreadable: UnreadableCountdown?
    /// SQLite answered SQLITE_BUSY: another process held the lock past the busy
    /// timeout, or SQLite refused to wait because waiting could deadlock.
    var isContention = false

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.unreadable = nil
    }

    /// One row that cannot be read: the message names it and says how to remove it,
    /// never to move the file away, since the rest of it is readable.
    public init(unreadable: UnreadableCountdown) {
        self.kind = .unreadableCountdown
        self.path = unreadable.location
        self.reason = unreadable.problem
        self.unreadable = unreadable
    }

    public var description: String {
        switch kind {
        case .unavailable:
            "cannot open the countdown store \(path): \(reason)"
        case .corrupt:
            "the countdown store \(path) is damaged or not a cdscript store (\(reason)); it was left as it is: move it away or use another --state-dir"
        case .newerSchema:
            "the countdown store \(path) was written by a newer cdscript (\(reason)); it was left as it is: use a newer cdscript or another --state-dir"
        case .failed:
            "the countdown store \(path) failed: \(reason)"
        case .unreadableCountdown:
            unreadable?.description ?? "the countdown store \(path) has a countdown that cannot be read (\(reason))"
        }
    }
}
