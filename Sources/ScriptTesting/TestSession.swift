import CountdownCore

extension TestRunner {
    /// Runs `files` in order, writing each file's report as soon as it is done
    /// (one line per call to `write`, without newline); returns every report.
    public func run(files: [String], reporter: TestReporter, write rawWrite: (String) -> Void) -> [FileReport] {
        // Test names, messages and captured output come from scripts: no control
        // character of theirs reaches the terminal (see VisibleText).
        let write = { (line: String) in rawWrite(VisibleText.escapedKeepingLayout(line)) }
        reporter.opening().forEach(write)
        var reports: [FileReport] = []
        for file in files {
            let report = run(file: file)
            reports.append(report)
            reporter.lines(for: report).forEach(write)
        }
        reporter.closing(TestSummary(reports)).forEach(write)
        return reports
    }
}
