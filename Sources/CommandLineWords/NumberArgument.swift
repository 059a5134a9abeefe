import ArgumentParser

/// A number given on the command line, as the checks of the option groups and
/// the commands read it and say it back.
public enum NumberArgument {
    /// `--speed`, as `run`, `timer` and `stopwatch` take it: a finite factor above 0.
    public static func checkSpeed(_ speed: Double?) throws {
        if let speed, !(speed.isFinite && speed > 0) {
            let why = speed.isFinite && speed <= 0 ? " (time cannot stand still or run backwards)" : ""
            throw ValidationError("--speed must be a finite number greater than 0\(why), got \(text(speed))")
        }
    }

    /// `value` as a message quotes it: a whole number without ".0" (60, not 60.0).
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
