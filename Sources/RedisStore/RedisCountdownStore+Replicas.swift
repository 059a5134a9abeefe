import CountdownCore

/// Changes held by replicas before they count as done (`RedisReplicaWait`):
/// after the primary applied a change, `WAIT N TIMEOUT` on the same connection
/// blocks until N replicas acknowledged everything this connection wrote, or
/// the timeout passed.
extension RedisCountdownStore {
    /// A change the primary holds that fewer replicas than asked for confirmed.
    public struct UnconfirmedChange: Equatable, Sendable, CustomStringConvertible {
        /// What changed, as said: "'x'" (a countdown), "12 countdowns", "the end claim of 'x'".
        public let subject: String
        /// Replicas that acknowledged it within the timeout, and how many were asked for.
        public let confirmed: Int
        public let wanted: Int
        public let timeoutMilliseconds: Int
        /// The server's reason when it refused to wait (an error reply), else nil.
        public let refusal: String?

        public var description: String {
            let how = refusal.map { "the server would not wait for replicas (\($0))" }
                ?? "only \(confirmed) of \(wanted) replica\(wanted == 1 ? "" : "s") confirmed it within \(timeoutMilliseconds) ms"
            return "the change to \(subject) is on the primary, but \(how): should the primary fail before a replica has it, the change is lost with it"
        }
    }

    /// After a change the server applied (or had applied, on a replay): waits
    /// for the replicas `url.wait` names. Too few in time is no failure (the
    /// change is made): it is counted in `unconfirmed`, and said once on `notice`.
    /// A connection lost while waiting is thrown like any other: the caller keeps
    /// the change under its sequence number, to be sent again to whichever server
    /// is primary next (applied there once).
    func confirmOnReplicas(_ connection: RedisConnection, subject: String) throws(RedisError) {
        let wanted = url.wait.replicasToWaitFor
        guard wanted > 0 else { return }
        let timeout = url.wait.effectiveTimeoutMilliseconds
        // The server holds the reply for up to `timeout`: the read waits that long
        // and the usual time for an answer on top.
        connection.setTimeout(milliseconds: timeout + timeoutMilliseconds)
        defer { connection.setTimeout(milliseconds: timeoutMilliseconds) }
        let reply = try connection.command(["WAIT", String(wanted), String(timeout)])
        switch reply {
        case .integer(let confirmed) where confirmed >= wanted:
            return
        case .integer(let confirmed):
            recordUnconfirmed(UnconfirmedChange(subject: subject, confirmed: Int(confirmed), wanted: wanted,
                                                timeoutMilliseconds: timeout, refusal: nil))
        case .error(let e):
            recordUnconfirmed(UnconfirmedChange(subject: subject, confirmed: 0, wanted: wanted,
                                                timeoutMilliseconds: timeout, refusal: e))
        default:
            throw RedisError(connectionLost: false, message: "\(url): unexpected reply \(reply) to WAIT")
        }
    }

    /// A countdown's id as `confirmOnReplicas` names it.
    static func subject(_ id: String) -> String { "'\(VisibleText.escaped(id))'" }

    private func recordUnconfirmed(_ change: UnconfirmedChange) {
        unconfirmedCount += 1
        if firstUnconfirmed == nil {
            firstUnconfirmed = change
            notice("cdscript: \(url): \(change)")
        }
    }
}
