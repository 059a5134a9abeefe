/// The countdowns a process runs from a store, as that process sees them: what a
/// store that keeps a copy of what it last saw (Redis: its answer while the
/// server is out of reach, and what it writes back when the server lost its
/// data) asks for instead of keeping a copy of the countdowns the process runs.
///
/// Issue 53: a process holding a million stored countdowns kept each twice, once
/// running and once in the Redis store's copy (80 bytes a countdown). The
/// process's own view serves the copy's purposes: while the server answers,
/// conditional writes compare against what the server holds (read afresh), and
/// while it does not, the changes queued carry the view they were made from and
/// are rebased on what the server holds when they are sent.
public protocol HeldCountdowns: AnyObject {
    /// True while this process runs the countdown stored under `id`.
    func holds(id: String) -> Bool
    /// The record of `id` as this process sees it (local terms), while it runs it,
    /// or as it ends: while a change is being made to it, the record as it was
    /// before that change. Nil when it does not run it.
    func heldRecord(id: String) -> StoredCountdown?
    /// The ids of every countdown it runs from the store, in no particular order.
    var heldIDs: [String] { get }
}

/// A store that leaves the countdowns a process runs to that process
/// (`HeldCountdowns`) instead of keeping a copy of them.
public protocol HandsOverHeldCountdowns: AnyObject {
    /// The process's countdowns; the store keeps no reference that would keep it alive.
    var holder: (any HeldCountdowns)? { get set }
    /// The process runs `id` from now on: any copy the store keeps of it goes.
    func handedOver(id: String)
    /// `holder`'s countdowns go (its Lua state is about to close): the store asks
    /// it nothing more. Nothing changes when another holder took its place (a
    /// reloaded script's).
    func holderGoes(_ holder: any HeldCountdowns)
    /// `saveAll` of records of countdowns the process runs (`heldHere`): the store
    /// need not ask which it runs.
    func saveAll(_ records: [StoredCountdown], heldHere: Bool) throws
}
