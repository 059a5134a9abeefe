import ArgumentParser
import CountdownCore
import StoreViews

/// The options of `watch --bar`.
public struct BarOptions: ParsableArguments {
    public init() {}

    @Option(help: ArgumentHelp("Write updates in a status bar's protocol instead of showing a view: waybar, i3bar (also swaybar) or polybar.", valueName: "BAR"))
    public var bar: BarProtocol?

    @Option(help: ArgumentHelp("With --bar: what to show for each countdown (default: \"\(StatusFormat.defaultText)\"; placeholders as in `cdscript status`).", valueName: "TEXT"))
    public var format: String = StatusFormat.defaultText

    @Option(help: ArgumentHelp("With --bar: put between countdowns (default: two spaces).", valueName: "TEXT"))
    public var separator: String = "  "

    @Option(help: ArgumentHelp("With --bar: the last SECONDS of a running countdown are critical (waybar's class, i3bar's colour); 0 for never (default: 60).", valueName: "SECONDS"))
    public var critical: Double = 60

    public func validate() throws {
        guard bar != nil else {
            for (name, given) in [("--format", format != StatusFormat.defaultText), ("--separator", separator != "  "), ("--critical", critical != 60)] where given {
                throw ValidationError("\(name) goes with --bar")
            }
            return
        }
        do {
            _ = try StatusFormat(format)
        } catch {
            throw ValidationError("--format: \(error)")
        }
        guard critical.isFinite, critical >= 0, Time.nanoseconds(fromSeconds: critical) != nil else {
            throw ValidationError("--critical must be a number of seconds from 0 to \(CountdownRange.longestDuration / Time.nanosecondsPerSecond), got \(NumberArgument.text(critical))")
        }
    }
}

extension BarProtocol: ExpressibleByArgument {}
