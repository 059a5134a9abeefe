import ArgumentParser
import CountdownCore
import FoundationEssentials
import ScriptRunning

/// What the built-in scripts (`timer`, `stopwatch`) take besides their own
/// options: the store, the limits, fast-forward, the view and the redraw
/// interval; and how such a script is run with them.
public struct BuiltinScriptOptions: ParsableArguments {
    public init() {}

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var hardening: HardeningOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Let time flow N times faster.", valueName: "N"))
    var speed: Double?

    @OptionGroup public var viewOptions: ViewOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Time between redraws, at least \(Self.shortestEvery) s (default: \(Self.shortestEvery) in a terminal, 1 for plain lines).", valueName: "DURATION"))
    public var every: String?

    /// The shortest `--every`, as help shows it (0.1): countdown.start's bound.
    static let shortestEvery = Time.seconds(CountdownRange.shortestTick)

    /// The checks of `every` and `speed`; not `validate()`, which the parser
    /// would run for `--eject` too, where neither matters.
    public func check() throws {
        if let every { _ = try DurationArgument.read(every, as: "--every", in: .tickInterval) }
        try NumberArgument.checkSpeed(speed)
    }

    /// Runs the built-in script `source` with `arguments` (its `arg`, name first)
    /// until the run ends, as `cdscript run` runs a file.
    public func run(_ source: [UInt8], chunkName: String, arguments: [String]) throws {
        let settings = RunSettings(options: storeOptions, hardening: hardening, speed: speed, view: viewOptions)
        try exitingAsCommand {
            try ScriptRun.run(settings) { host in
                host.runScript(source: Data(source), chunkName: chunkName, arguments: arguments)
            }
        }
    }
}
