/// The outcome of one test.
public struct TestResult: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable {
        case passed, failed, skipped
    }

    /// The test's full name: enclosing `describe` names and its own, joined by " > ".
    public var name: String
    public var status: Status
    /// The line of the `it` (or `pending`) that declared it.
    public var line: Int
    /// Why it failed, without location.
    public var message: String?
    /// `FILE:LINE` of the failing code: the assertion, the `error`, or the
    /// clock call during which a hook raised.
    public var location: String?
    /// For failed assertions: what was expected and what the value was.
    public var expected: String?
    public var actual: String?
    /// The Lua traceback of the failure, frames of the test runner left out.
    public var traceback: String?
    /// What the test printed (shown for failures).
    public var output: [String]

    public init(name: String, status: Status, line: Int = 0, message: String? = nil, location: String? = nil,
                expected: String? = nil, actual: String? = nil, traceback: String? = nil, output: [String] = []) {
        self.name = name
        self.status = status
        self.line = line
        self.message = message
        self.location = location
        self.expected = expected
        self.actual = actual
        self.traceback = traceback
        self.output = output
    }
}

/// The outcome of one test file.
public struct FileReport: Equatable, Sendable {
    /// The path as found (relative paths stay relative, so reports are the same on every machine).
    public var path: String
    public var results: [TestResult]
    /// Set when the file could not be read or raised an error while its tests
    /// were being collected; then it counts as one failure.
    public var loadError: String?
    /// How many tests the file declared (`it`, `spec`, `test`, `pending`), run or not.
    /// A file that loaded and declared none is reported by name.
    public var declaredTests: Int

    public init(path: String, results: [TestResult] = [], loadError: String? = nil, declaredTests: Int? = nil) {
        self.path = path
        self.results = results
        self.loadError = loadError
        self.declaredTests = declaredTests ?? results.count
    }

    /// The file loaded and declared no test at all.
    public var hasNoTests: Bool { loadError == nil && declaredTests == 0 }
}

/// Totals over a run.
public struct TestSummary: Equatable, Sendable {
    public var passed = 0
    public var failed = 0
    public var skipped = 0

    public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
    }

    public init(_ reports: [FileReport]) {
        for report in reports {
            if report.loadError != nil { failed += 1 }
            for result in report.results {
                switch result.status {
                case .passed: passed += 1
                case .failed: failed += 1
                case .skipped: skipped += 1
                }
            }
        }
    }

    /// `N passed, N failed`, plus `, N skipped` when some were.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    public var succeeded: Bool { failed == 0 }

    /// No test ran (passed, failed or skipped): a run that tested nothing.
    public var ranNothing: Bool { passed + failed + skipped == 0 }
}
