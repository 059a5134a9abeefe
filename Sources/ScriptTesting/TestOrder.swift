/// The order of test files as busted's `--shuffle-files` and `--seed` give it.
public enum TestOrder {
    /// `names` shuffled with busted's algorithm and Lua 5.4's generator seeded
    /// with `seed` (Lua/shuffle.lua, which the test prelude shares), so the same
    /// seed gives busted's order.
    public static func shuffled(_ names: [String], seed: Int64) -> [String] {
        guard names.count > 1 else { return names }
        guard let text = try? LuaEvaluation.run(source, arguments: [String(seed), names.joined(separator: "\n")], results: 1).first else {
            return names
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    private static let source = [PackageResources.shuffle_lua, PackageResources.shuffle_files_lua]
        .map { String(decoding: $0, as: UTF8.self) }.joined()
}

/// busted's `--list`: `FILE:LINE: full name` for every test a file declares.
public enum TestListing {
    public static func lines(_ report: FileReport) -> [String] {
        if let loadError = report.loadError {
            return ["\(report.path): (file did not load) " + (loadError.split(separator: "\n").first.map(String.init) ?? "")]
        }
        return report.results.map { "\(report.path):\($0.line): \($0.bustedName)" }
    }
}
