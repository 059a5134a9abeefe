import Foundation
import Testing

/// The C files that limit a script depend on each other one way: each calls only
/// what the files below it define. Read from the sources: a call added upwards
/// (limits.c calling into hooks.c, say) brings back the circle they once made.
@Suite("The shim's limits are layered: no file calls into one above it")
struct ShimLayerTests {
    static let shim = BinaryRunner.packageRoot.appendingPathComponent("Sources/CLuaShim")

    /// Bottom first; files in one layer may not call each other either.
    static let layers: [[String]] = [
        ["interrupt.c"],               // signals that stop Lua code
        ["limits.c"],                  // the memory cap and the instruction budget
        ["wrappers.c", "coverage.c"],  // small calls into Lua; --coverage's counters and counting hook
        ["hooks.c"],                   // which hook each thread has: the script's own, coverage's, the budget's
        ["cpu_limit.c"],               // the CPU-time limit and Ctrl-Z
        ["coroutines.c"],              // tracked coroutines, which keep every thread's hook
        ["callback.c"],                // a callback's bracket, where they meet
    ]

    static func source(_ file: String) throws -> String {
        try String(contentsOf: shim.appendingPathComponent(file), encoding: .utf8)
    }

    /// The external names a file defines: its non-static functions and globals
    /// (`cd_...` at the start of a line, after their type).
    static func definitions(_ file: String) throws -> Set<String> {
        var names: Set<String> = []
        for line in try source(file).split(separator: "\n") where !line.hasPrefix("static") && !line.hasPrefix(" ") && !line.hasPrefix("/*") {
            if let match = line.firstMatch(of: /^[A-Za-z_][A-Za-z0-9_ *]*?\b(cd_[a-z0-9_]+)\s*(\(|=|;)/) {
                names.insert(String(match.1))
            }
        }
        return names
    }

    @Test("each of interrupt.c, limits.c, wrappers.c, coverage.c, hooks.c, cpu_limit.c, coroutines.c and callback.c uses only what the layers below it define")
    func oneWay() throws {
        for (level, layer) in Self.layers.enumerated() {
            let above = try Self.layers.enumerated().flatMap { other, files in
                try (other >= level ? files : []).map { ($0, try Self.definitions($0)) }
            }
            for file in layer {
                let text = try Self.source(file)
                let words = Set(text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
                for (other, names) in above where other != file {
                    let used = names.intersection(words)
                    #expect(used.isEmpty, "\(file) uses \(used.sorted()) of \(other), which is not below it")
                }
            }
        }
        // The walk found what it looks for.
        #expect(try Self.definitions("limits.c").contains("cd_count_hook"))
        #expect(try Self.definitions("hooks.c").contains("cd_reapply_hook"))
        #expect(try Self.definitions("interrupt.c").contains("cd_interrupted"))
        #expect(try Self.definitions("cpu_limit.c").contains("cd_callback_sequence"))
        #expect(try Self.definitions("coverage.c").contains("cd_coverage_hook"))
    }
}
