import ArgumentParser

/// Benchmarks of cdscript's scheduler and Lua host; `scripts/bench` runs them
/// beside luv and the machine's floors and writes BENCHMARKS.md.
@main
struct CDBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdbench",
        abstract: "Benchmarks of cdscript (each prints one JSON line).",
        subcommands: [Dispatch.self, PcallFloor.self, Accuracy.self, Churn.self, Memory.self, Operations.self]
    )
}
