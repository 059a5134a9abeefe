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
    /// A failed test that raised outside an assertion (or whose hooks, setup or
    /// teardown failed): an error as busted counts it, apart from failures.
    public var isError: Bool
    /// How long the test took (its hooks included), for `-o gtest`'s `(N ms)`.
    /// Measured, so it never makes two results differ (see `Measured`).
    public var duration = Measured(seconds: 0)
    /// The names of the enclosing blocks and the test's own, outermost first
    /// (busted's full name joins them with spaces); empty when not known.
    public var names: [String]
    /// busted's descriptor of what the result is for: `it`, `pending`, or the
    /// block part that failed (`describe`, `setup`, `teardown`...).
    public var descriptor: String

    /// The full name as busted writes it: the names joined by spaces.
    public var bustedName: String {
        names.isEmpty ? name.replacing(" > ", with: " ") : names.joined(separator: " ")
    }

    public init(name: String, status: Status, line: Int = 0, message: String? = nil, location: String? = nil,
                expected: String? = nil, actual: String? = nil, traceback: String? = nil, output: [String] = [],
                isError: Bool = false, names: [String] = [], descriptor: String = "it") {
        self.name = name
        self.status = status
        self.line = line
        self.message = message
        self.location = location
        self.expected = expected
        self.actual = actual
        self.traceback = traceback
        self.output = output
        self.isError = isError
        self.names = names
        self.descriptor = descriptor
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
    /// The file's main chunk raised while it ran (not a syntax error, nor a
    /// file that could not be read): busted names that error `suite FILE`.
    public var loadErrorRaised = false
    /// The traceback at the end of `loadError`, when it has one.
    public var loadTraceback: String?
    /// The load error's message alone, whole (every line of it: the paths a
    /// failed `require` tried), without the traceback after it.
    public var loadMessage: String? {
        guard let loadError, let loadTraceback, loadError.hasSuffix("\n" + loadTraceback) else { return loadError }
        return String(loadError.dropLast(loadTraceback.count + 1))
    }
    /// With `--coverage`: the lines of Lua files that ran while the file did.
    public var coverage = CoverageData()
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
    /// Failures and errors together (what the closing line counts as failed).
    public var failed = 0
    public var skipped = 0
    /// Of `failed`, the errors: tests that raised outside an assertion, failing
    /// hooks, setups and teardowns, and files that did not load (as busted counts them).
    public var errors = 0

    public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0, errors: Int = 0) {
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
        self.errors = errors
    }

    public init(_ reports: [FileReport]) {
        for report in reports {
            if report.loadError != nil {
                failed += 1
                errors += 1
            }
            for result in report.results {
                switch result.status {
                case .passed: passed += 1
                case .failed:
                    failed += 1
                    if result.isError { errors += 1 }
                case .skipped: skipped += 1
                }
            }
        }
    }

    /// Failures that are not errors: assertions that did not hold.
    public var failures: Int { failed - errors }

    /// `N passed, N failed`, plus `, N skipped` when some were.
    public var line: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    public var succeeded: Bool { failed == 0 }

    /// No test ran (passed, failed or skipped): a run that tested nothing.
    public var ranNothing: Bool { passed + failed + skipped == 0 }
}

/// A measured time: reports show it, comparisons leave it out, so that the same
/// files give equal results however long they took.
public struct Measured: Equatable, Sendable {
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
    public static func == (_: Measured, _: Measured) -> Bool { true }
}
