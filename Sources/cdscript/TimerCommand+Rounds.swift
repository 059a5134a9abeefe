import ArgumentParser
import CountdownCore

extension TimerCommand {
    /// The longest phase name the timer stores as a title ("break N/N"), for the
    /// title's limit with --title in front of it.
    static func phaseTitle(_ title: String?, name: String, round: Int, rounds: Int) -> String {
        let phase = "\(name) \(round)/\(rounds)"
        return title.map { "\($0) · \(phase)" } ?? phase
    }

    /// `--then DURATION --rounds N` (a pomodoro), checked when the options are read
    /// as timer.lua checks them (an ejected copy runs without this command): both
    /// or neither, N a whole number from 1, a duration SPEC, no --overtime. A usage
    /// error (exit 64) otherwise.
    func checkRounds(_ spec: TimerSpec) throws {
        guard then != nil || rounds != nil else { return }
        guard let then, let rounds else {
            throw ValidationError("--then and --rounds go together: --then DURATION --rounds N (a pomodoro: cdscript timer 25m --then 5m --rounds 4)")
        }
        guard let count = Int(rounds), count >= 1 else {
            throw ValidationError("--rounds must be a whole number, 1 or more, got \"\(rounds)\"")
        }
        _ = try DurationArgument.read(then, as: "--then", in: .tickInterval)
        if case .deadline = spec {
            throw ValidationError("--rounds needs a duration SPEC (25m), not a clock time or date, got \"\(self.spec ?? "")\"")
        }
        if overtime { throw ValidationError("--overtime with --rounds: each phase ends on time and the next one begins") }
        if id != nil, let refusal = CountdownAnnotations.titleRefusal(Self.phaseTitle(title, name: "break", round: count, rounds: count)) {
            throw ValidationError("--title: with --rounds each phase's title is \"TITLE · work 1/\(count)\": \(refusal)")
        }
    }
}
