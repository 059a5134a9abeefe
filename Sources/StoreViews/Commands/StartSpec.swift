import CountdownCore

/// What `cdscript start`'s DURATION|DEADLINE says, read as the timer reads it:
/// a duration longer than 0, or a deadline that is still to come, within
/// `CountdownRange` either way.
public enum StartSpec {
    /// Why SPEC cannot start a countdown (the command puts `DURATION|DEADLINE: ` before it).
    public struct Refusal: Error, CustomStringConvertible, Equatable, Sendable {
        public let description: String
    }

    /// `spec` read at the wall-clock instant `wall`.
    public static func read(_ spec: String, wallNow wall: Nanoseconds) throws(Refusal) -> TimerSpec {
        if spec.hasPrefix("-") {
            throw Refusal(description: "a countdown lasts longer than 0, got \"\(spec)\" (to take time off a stored countdown: cdscript append ID -30)")
        }
        let parsed: TimerSpec
        do {
            parsed = try DeadlineParser.parseTimerSpec(spec, wallNow: wall, timeZone: SystemLocalZone())
        } catch {
            throw Refusal(description: "\(error)")
        }
        switch parsed {
        case .duration(let ns):
            if ns <= 0 { throw Refusal(description: "the duration must be longer than 0, got \"\(spec)\"") }
            if ns > CountdownRange.longestDuration {
                throw Refusal(description: "\"\(spec)\" is longer than \(CountdownRange.longestText), the longest a countdown can be")
            }
        case .deadline(let instant):
            if instant <= wall { throw Refusal(description: "\(spec) is in the past") }
            if instant > CountdownRange.latestInstant || instant - wall > CountdownRange.longestDuration {
                throw Refusal(description: "\(spec) is too far away: a countdown lasts at most \(CountdownRange.longestText) and ends by \(CountdownRange.latestInstantText)")
            }
        }
        return parsed
    }
}
