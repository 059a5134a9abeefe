import CountdownCore

/// Turns results into text as files finish. Output is a pure function of the
/// results, so the same files always give the same report.
public protocol TestReporter: AnyObject {
    /// Lines to print before the first file.
    func opening() -> [String]
    /// Lines for one finished file.
    func lines(for report: FileReport) -> [String]
    /// Lines after the last file; the last one is the summary.
    func closing(_ summary: TestSummary) -> [String]
}

extension TestReporter {
    /// The whole report for `reports`, as one string with a final newline; control
    /// characters from scripts escaped, as `cdscript test` writes them as files finish
    /// (`TestOutput.run(files:runner:settings:)` in ScriptRunning).
    public func render(_ reports: [FileReport]) -> String {
        var all = opening()
        for report in reports { all += lines(for: report) }
        all += closing(TestSummary(reports))
        return all.map { VisibleText.escapedKeepingLayout($0) + "\n" }.joined()
    }
}

/// What a test-file failure says, in the order every reporter shows it.
struct FailureText {
    /// `FILE:LINE: message`, unless the message already starts with its location.
    var headline: String
    var details: [String]

    init(_ result: TestResult) {
        let message = result.message ?? "failed"
        if let location = result.location, !message.hasPrefix(location + ":") {
            headline = location + ": " + message
        } else {
            headline = message
        }
        details = []
        if let expected = result.expected { details.append("expected: " + expected) }
        if let actual = result.actual { details.append("actual:   " + actual) }
        if let traceback = result.traceback { details += traceback.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        if !result.output.isEmpty {
            details.append("output:")
            details += result.output.map { "  " + $0 }
        }
    }

    var lines: [String] {
        headline.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) + details
    }
}

/// The report for people: the file, one line per test with a mark, failures
/// in detail, and the totals as the last line (before it, when some failed
/// tests were errors, how many).
public final class HumanReporter: TestReporter {
    /// The marks of a passed, failed, errored and pending test.
    public struct Marks: Sendable {
        public var passed, failed, error, pending: String
        /// busted's utfTerminal shows an error as ✱.
        public static let unicode = Marks(passed: "✓", failed: "✗", error: "✱", pending: "-")
        /// busted's plainTerminal marks: + - * .
        public static let ascii = Marks(passed: "+", failed: "-", error: "*", pending: ".")
    }

    private let marks: Marks

    public init(marks: Marks = .unicode) {
        self.marks = marks
    }

    public func opening() -> [String] { [] }

    public func lines(for report: FileReport) -> [String] {
        if report.hasNoTests { return [report.path, "  (no tests: the file declares no it, test or spec)"] }
        // A file whose tests the filter left out says nothing.
        if report.results.isEmpty && report.loadError == nil { return [] }
        var lines = [report.path]
        if let loadError = report.loadError {
            lines.append("  \(marks.error) (file did not load)")
            lines += indent(loadError.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        for result in report.results {
            switch result.status {
            case .passed:
                lines.append("  \(marks.passed) " + result.name)
            case .skipped:
                lines.append("  \(marks.pending) " + result.name + " (pending)")
            case .failed:
                lines.append("  \(result.isError ? marks.error : marks.failed) " + result.name + (result.isError ? " (error)" : ""))
                lines += indent(FailureText(result).lines)
            }
        }
        return lines
    }

    public func closing(_ summary: TestSummary) -> [String] {
        guard summary.errors > 0 else { return ["", summary.line] }
        // busted counts errors apart from failures; the last line counts both as failed.
        let errors = summary.errors == 1 ? "1 error" : "\(summary.errors) errors"
        let failures = summary.failures == 1 ? "1 failure" : "\(summary.failures) failures"
        return ["", "\(failures), \(errors) (raised outside an assertion)", summary.line]
    }

    private func indent(_ lines: [String]) -> [String] {
        lines.map { $0.isEmpty ? "" : "      " + $0.replacingTabs() }
    }
}

extension String {
    /// Lua tracebacks indent frames with a tab; two spaces line up better.
    func replacingTabs() -> String {
        var result = ""
        for character in self { result += character == "\t" ? "  " : String(character) }
        return result
    }
}
