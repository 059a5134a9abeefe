extension TestRunner {
    /// Runs `files` in order, writing each file's report as soon as it is done
    /// (one line per call to `write`, without newline); returns every report.
    public func run(files: [String], reporter: TestReporter, write: (String) -> Void) -> [FileReport] {
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
