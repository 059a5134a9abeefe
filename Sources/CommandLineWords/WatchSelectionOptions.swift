import ArgumentParser
import CountdownCore
import StoreViews

/// What `cdscript watch` shows of a large store: the ids that match a pattern,
/// a page at a time in the terminal, and in plain output only what changed.
public struct WatchSelectionOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("match"), help: ArgumentHelp(
        "Show only the ids matching this shell pattern (* ? [...], as in a shell; quote it).",
        valueName: "PATTERN"))
    var pattern: String?

    @Flag(help: "With --plain (or output that is not a terminal): also print a line on every tick, not only when a countdown starts, changes, ends or goes.")
    public var ticks = false

    public func validate() throws {
        if let pattern {
            do { _ = try IDPattern(pattern) } catch { throw ValidationError("\(error)") }
        }
    }

    public var filter: WatchFilter { WatchFilter(pattern: pattern.flatMap { try? IDPattern($0) }) }
}
