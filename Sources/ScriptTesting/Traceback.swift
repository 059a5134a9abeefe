/// Lua tracebacks as a test report shows them: the frames of the test's own
/// code, without the runner's.
enum Traceback {
    static let header = "stack traceback:"

    /// Splits `message\nstack traceback:\n...` (what a hook error carries) into
    /// the message and its cleaned traceback.
    static func split(_ text: String) -> (message: String, traceback: String?) {
        guard let range = text.firstRange(of: "\n" + header + "\n") else { return (text, nil) }
        let message = String(text[..<range.lowerBound])
        let traceback = clean(header + "\n" + text[range.upperBound...])
        return (message, traceback)
    }

    /// Drops the frames of the test runner: its Lua prelude's, and everything
    /// from the protected call into the test outwards.
    static func clean(_ traceback: String) -> String {
        var kept: [Substring] = []
        for line in traceback.split(separator: "\n", omittingEmptySubsequences: true) {
            // The protected call into the test: run_limited (xpcall in older preludes).
            if line.contains("'run_limited'") || line.contains("in function 'xpcall'") { break }
            if line.contains(TestPrelude.sourceMarker) { continue }
            kept.append(line)
        }
        // Nothing but the header left: no frames worth showing.
        return kept.count <= 1 ? "" : kept.joined(separator: "\n")
    }
}
