import CountdownCore
/// busted's gtest output (`-o gtest`), as Google Test writes it: `[ RUN      ]`
/// and a verdict line per test (`FILE @ LINE: full name (0.41 ms)`), a block per
/// file with its total, the lists of skipped, failed and errored tests at the
/// end and busted's closing counts (` 1 FAILED TEST`); no `N passed, N failed`
/// line, as busted writes none.
public final class GTestReporter: TestReporter {
    private var tests = 0
    private var files = 0
    private var skipped: [String] = []
    private var failed: [String] = []
    private var errored: [String] = []
    private var seconds = 0.0

    public init() {}

    public func opening() -> [String] {
        ["[==========] Running tests from scanned files.", "[----------] Global test environment setup."]
    }

    public func lines(for report: FileReport) -> [String] {
        files += 1
        var lines = ["[----------] Running tests from \(report.path)"]
        if let loadError = report.loadError {
            let title = "\(report.path) @ 0: (file did not load)"
            lines.append(loadError)
            lines.append("[  ERROR   ] " + title)
            errored.append(title)
        }
        var fileSeconds = 0.0
        for result in report.results {
            tests += 1
            let title = "\(report.path) @ \(result.line): \(result.bustedName)"
            let took = " " + Self.milliseconds(result.duration.seconds)
            fileSeconds += result.duration.seconds
            lines.append("[ RUN      ] " + title)
            switch result.status {
            case .passed:
                lines.append("[       OK ] " + title + took)
            case .skipped:
                lines.append("[ SKIPPED  ] " + title + took)
                skipped.append(title)
            case .failed:
                // busted's failure description: the message as busted rewrites it, no
                // traceback (busted gives one only with --verbose).
                lines += JSONReport.bustedMessage(result).split(separator: "\n", omittingEmptySubsequences: false).map { String($0).replacingTabs() }
                lines.append((result.isError ? "[  ERROR   ] " : "[  FAILED  ] ") + title + took)
                if result.isError { errored.append(title) } else { failed.append(title) }
            }
        }
        seconds += fileSeconds
        lines.append("[----------] \(Self.count(report.results.count, "test")) from \(report.path) \(Self.milliseconds(fileSeconds, total: true))")
        lines.append("")
        return lines
    }

    public func closing(_ summary: TestSummary) -> [String] {
        var lines = ["[----------] Global test environment teardown.",
                     "[==========] \(Self.count(tests, "test")) from \(Self.count(files, "test file")) ran. \(Self.milliseconds(seconds, total: true))",
                     "[  PASSED  ] \(Self.count(summary.passed, "test"))."]
        for (mark, noun, titles) in [("[ SKIPPED  ]", "test", skipped), ("[  FAILED  ]", "test", failed), ("[  ERROR   ]", "error", errored)] where !titles.isEmpty {
            lines.append("\(mark) \(Self.count(titles.count, noun)), listed below:")
            lines += titles.map { "\(mark) " + $0 }
        }
        // busted's closing counts, after a blank line when any was listed.
        let counts = [(skipped.count, "SKIPPED TEST"), (failed.count, "FAILED TEST"), (errored.count, "ERROR")].filter { $0.0 > 0 }
        if !counts.isEmpty { lines.append("") }
        return lines + counts.map { " \($0.0) \($0.1)\($0.0 == 1 ? "" : "S")" }
    }

    /// busted's `(0.41 ms)` and `(0.41 ms total)`.
    static func milliseconds(_ seconds: Double, total: Bool = false) -> String {
        CFormat.string(total ? "(%.2f ms total)" : "(%.2f ms)", seconds * 1000)
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
