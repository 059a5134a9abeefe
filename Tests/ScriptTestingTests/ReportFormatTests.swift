import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ScriptTesting

/// The reports of a run over fixtures with passes, failures, skips, a load
/// error and names that need escaping.
private func fixtureReports() -> [FileReport] {
    let runner = TestRunner()
    return ["mixed.lua", "failing_assertions.lua", "syntax_error.lua"].map { runner.run(file: Fixture.path($0)) }
}

/// A small TAP 13 reader: enough to check what a TAP consumer would see.
private struct TAPDocument {
    struct Point { var ok: Bool; var number: Int; var description: String; var directive: String?; var yaml: [String] }
    var version: String?
    var plan: Int?
    var points: [Point] = []
    var comments: [String] = []

    init(_ text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if i == 0 {
                version = line
            } else if let match = line.wholeMatch(of: /1\.\.(\d+)/) {
                plan = Int(match.1)
            } else if let match = line.wholeMatch(of: /(ok|not ok) (\d+) - (.*)/) {
                var description = String(match.3)
                var directive: String?
                // An unescaped "#" starts the directive (an escaped one reads "\#").
                if let range = description.range(of: " # ") {
                    directive = String(description[range.upperBound...])
                    description = String(description[..<range.lowerBound])
                }
                var yaml: [String] = []
                if i + 1 < lines.count, lines[i + 1] == "  ---" {
                    i += 2
                    while i < lines.count, lines[i] != "  ..." {
                        yaml.append(lines[i])
                        i += 1
                    }
                    guard i < lines.count else { throw TAPError.unterminatedYAML }
                }
                points.append(Point(ok: match.1 == "ok", number: Int(match.2)!, description: description, directive: directive, yaml: yaml))
            } else if line.hasPrefix("#") {
                comments.append(line)
            } else {
                throw TAPError.unexpected(line)
            }
            i += 1
        }
    }

    enum TAPError: Error { case unterminatedYAML, unexpected(String) }
}

@Suite("TAP and JUnit reports parse, count right, escape names, and are deterministic")
struct ReportFormatTests {
    @Test("TAP version 13: numbered points, plan, SKIP directives, YAML failures, totals as the last line")
    func tap() throws {
        let reports = fixtureReports()
        let text = TAPReporter(names: .cdscript).render(reports)
        let tap = try TAPDocument(text)
        #expect(tap.version == "TAP version 13")
        #expect(tap.plan == tap.points.count)
        #expect(tap.points.map(\.number) == Array(1...tap.points.count))
        let summary = TestSummary(reports)
        #expect(tap.points.filter { !$0.ok }.count == summary.failed)
        #expect(tap.points.filter { $0.directive?.hasPrefix("SKIP") == true }.count == summary.skipped)
        #expect(tap.points.filter { $0.ok && $0.directive == nil }.count == summary.passed)
        #expect(text.hasSuffix("\n# \(summary.line)\n"))
        #expect(summary.line == "3 passed, 10 failed, 2 skipped")

        let escaped = tap.points[0].description
        #expect(escaped == "\(Fixture.path("mixed.lua")): report <&> \"quotes\" \\# hash > passes")
        let failure = tap.points.first { $0.description.hasSuffix("failing > to_be") }!
        #expect(failure.yaml.contains("  message: \"expected 1 to be 2\""))
        #expect(failure.yaml.contains("  at: \"\(Fixture.path("failing_assertions.lua")):4\""))
        #expect(failure.yaml.contains("  expected: \"2\""))
        #expect(failure.yaml.contains("  actual: \"1\""))
        #expect(failure.yaml.contains("  traceback: |-"))
        let loadFailure = try #require(tap.points.last)
        #expect(!loadFailure.ok)
        #expect(loadFailure.description.hasSuffix("syntax_error.lua: (file did not load)"))
    }

    @Test("JUnit XML parses; suites and cases carry the counts, failures, errors and skips")
    func junit() throws {
        let reports = fixtureReports()
        let xml = JUnitReport.xml(reports, names: .cdscript)
        let document = try XMLDocument(xmlString: xml)
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "15")
        // "error in a helper" raised outside an assertion, and syntax_error.lua did not load: 2 errors.
        #expect(root.attribute(forName: "failures")?.stringValue == "8")
        #expect(root.attribute(forName: "errors")?.stringValue == "2")
        #expect(root.attribute(forName: "skipped")?.stringValue == "2")

        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue } == reports.map(\.path))
        let mixed = suites[0]
        let cases = mixed.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue ?? "" } == [
            "report <&> \"quotes\" # hash > passes",
            "report <&> \"quotes\" # hash > fails",
            "report <&> \"quotes\" # hash > is pending",
            "report <&> \"quotes\" # hash > has no body yet",
            "report <&> \"quotes\" # hash > passes with a clock that kept its time",
        ])
        #expect(cases.map { $0.elements(forName: "skipped").count } == [0, 0, 1, 1, 0])
        #expect(cases.map { $0.elements(forName: "failure").count } == [0, 1, 0, 0, 0])
        #expect(cases[1].attribute(forName: "line")?.stringValue == "6")

        let failing = suites[1].elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "failing > to_be" }
        let failure = try #require(failing?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == "\(Fixture.path("failing_assertions.lua")):4: expected 1 to be 2")
        #expect(failure.stringValue?.contains("expected: 2\nactual:   1\nstack traceback:") == true)

        let printed = suites[1].elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "failing > prints, then fails" }
        #expect(printed?.elements(forName: "system-out").first?.stringValue == "diagnostic line")

        let raised = suites[1].elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "failing > error in a helper" }
        #expect(raised?.elements(forName: "error").first?.attribute(forName: "type")?.stringValue == "error")
        #expect(raised?.elements(forName: "failure").isEmpty == true)

        let broken = suites[2]
        #expect(broken.attribute(forName: "errors")?.stringValue == "1")
        let error = try #require(broken.elements(forName: "testcase").first?.elements(forName: "error").first)
        #expect(error.attribute(forName: "message")?.stringValue?.hasPrefix("\(Fixture.path("syntax_error.lua")):3:") == true)
    }

    @Test("characters XML cannot hold are replaced, so the report always parses")
    func junitEscaping() throws {
        let report = FileReport(path: "a&b.lua", results: [
            TestResult(name: "nul\u{0}bell\u{7} <tag> & \"q\" 'a'", status: .failed, message: "line1\nline2 \u{1B}[31m"),
        ])
        let document = try XMLDocument(xmlString: JUnitReport.xml([report], names: .cdscript))
        let testcase = try #require(document.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "name")?.stringValue == "nul\u{FFFD}bell\u{FFFD} <tag> & \"q\" 'a'")
        #expect(testcase.elements(forName: "failure").first?.stringValue == "line1\nline2 \u{FFFD}[31m")
    }

    @Test("the same files give the same output, in every format")
    func deterministic() {
        let first = fixtureReports(), second = fixtureReports()
        #expect(first == second)
        #expect(HumanReporter().render(first) == HumanReporter().render(second))
        #expect(TAPReporter(names: .cdscript).render(first) == TAPReporter(names: .cdscript).render(second))
        #expect(JUnitReport.xml(first, names: .cdscript) == JUnitReport.xml(second, names: .cdscript))
        #expect(!HumanReporter().render(first).contains("0x"))
    }
}
