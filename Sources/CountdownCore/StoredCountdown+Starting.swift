/// A new stored countdown, made from what a start request names: the record a
/// running `cdscript timer --id` would store at its first tick.
extension StoredCountdown {
    /// Why a countdown cannot be started from what was asked.
    public struct StartRefusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// A running countdown `id` started at `now`: for a duration, it follows the
    /// boot clock (and the wall clock after a reboot); for a deadline, the wall
    /// clock. Refused when the deadline has passed or a value leaves `CountdownRange`.
    /// `cdscript start` and serve's `POST /api/countdowns` both store this record.
    public static func started(id: String, spec: TimerSpec, every: Nanoseconds, overtime: Bool,
                               title: String? = nil, actions: [String] = [],
                               at now: StoreInstant) throws(StartRefusal) -> StoredCountdown {
        let kind: Kind
        let left: Nanoseconds
        switch spec {
        case .duration(let length):
            kind = .duration
            left = length
        case .deadline(let wall):
            kind = .wall
            guard wall > now.wall else { throw StartRefusal("the deadline has passed") }
            guard wall <= CountdownRange.latestInstant else {
                throw StartRefusal("the deadline is later than \(CountdownRange.latestInstantText), the latest a countdown can end")
            }
            left = wall - now.wall
        }
        guard left <= CountdownRange.longestDuration else {
            throw StartRefusal("the countdown would be longer than \(CountdownRange.longestText), the longest a countdown can be")
        }
        let record = StoredCountdown(id: id, state: .running, kind: kind, wallDeadline: now.wall + left,
                                     every: every, total: left, bootID: now.bootID, bootDeadline: now.boot + left,
                                     updatedAt: now.wall, overtime: overtime, title: title, actions: actions)
        do {
            try CountdownRange.check(record)
        } catch {
            throw StartRefusal("\(error)")
        }
        return record
    }
}
