import ArgumentParser
import CLinux

/// Benchmarks of cdscript's scheduler and Lua host; `scripts/bench` runs them
/// beside luv and the machine's floors and writes BENCHMARKS.md.
@main
struct CDBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cdbench",
        abstract: "Benchmarks of cdscript (each prints one JSON line).",
        subcommands: [Dispatch.self, PcallFloor.self, Accuracy.self, Churn.self, Memory.self, Operations.self, ServeFanout.self]
    )

    /// ArgumentParser's entry, after the heap policy `cdscript` sets first, so that
    /// the figures are what a run of cdscript costs.
    static func main() {
        _ = cdl_heap_prefer_huge_pages()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
