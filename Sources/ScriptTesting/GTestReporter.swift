/// busted's gtest output (`-o gtest`), as Google Test writes it: `[ RUN      ]`
/// and a verdict line per test (`FILE @ LINE: full name`), a block per file,
/// and the lists of skipped, failed and errored tests at the end. Without
/// durations, so the same files give the same report; the totals line
/// `N passed, N failed` comes last.
public final class GTestReporter: TestReporter {
    private var tests = 0
    private var files = 0
    private var skipped: [String] = []
    private var failed: [String] = []
    private var errored: [String] = []

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
        for result in report.results {
            tests += 1
            let title = "\(report.path) @ \(result.line): \(result.bustedName)"
            lines.append("[ RUN      ] " + title)
            switch result.status {
            case .passed:
                lines.append("[       OK ] " + title)
            case .skipped:
                lines.append("[ SKIPPED  ] " + title)
                skipped.append(title)
            case .failed:
                lines += FailureText(result).lines.map { $0.replacingTabs() }
                lines.append((result.isError ? "[  ERROR   ] " : "[  FAILED  ] ") + title)
                if result.isError { errored.append(title) } else { failed.append(title) }
            }
        }
        lines.append("[----------] \(Self.count(report.results.count, "test")) from \(report.path)")
        lines.append("")
        return lines
    }

    public func closing(_ summary: TestSummary) -> [String] {
        var lines = ["[----------] Global test environment teardown.",
                     "[==========] \(Self.count(tests, "test")) from \(Self.count(files, "test file")) ran.",
                     "[  PASSED  ] \(Self.count(summary.passed, "test"))."]
        for (mark, noun, titles) in [("[ SKIPPED  ]", "test", skipped), ("[  FAILED  ]", "test", failed), ("[  ERROR   ]", "error", errored)] where !titles.isEmpty {
            lines.append("\(mark) \(Self.count(titles.count, noun)), listed below:")
            lines += titles.map { "\(mark) " + $0 }
        }
        return lines + ["", summary.line]
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
