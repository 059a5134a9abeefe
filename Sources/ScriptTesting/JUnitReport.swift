import CountdownCore

/// JUnit XML for CI systems, laid out as busted's junit output by default: one
/// `<testsuite name="Run 1 of 1">` holding every test as a `<testcase>` named
/// with busted's full name, `classname` its `FILE:LINE`; failed assertions are
/// `<failure>`, errors `<error>`, pending tests `<skipped/>`; an error outside
/// a test (a describe's body, setup, teardown) is an `<error>` in the
/// testsuite, a file that did not load an `<error>` in `<testsuites>`. With
/// `.cdscript` names: one `<testsuite>` per file, as cdscript wrote it before.
/// No timestamps or durations, so the same files give the same XML.
public enum JUnitReport {
    public static func xml(_ reports: [FileReport], names: ReportNames = .busted) -> String {
        names == .busted ? bustedLayout(reports) : cdscriptLayout(reports)
    }

    /// busted's layout (its outputHandlers/junit.lua), without times.
    static func bustedLayout(_ reports: [FileReport]) -> String {
        let testDescriptors: Set = ["it", "pending"]
        var tests = 0, failures = 0, errors = 0, skipped = 0
        var topErrors = "", body = ""
        for report in reports {
            if let loadError = report.loadError {
                errors += 1
                topErrors += "  <error>\(text(loadError))</error>\n"
            }
            for result in report.results {
                let failure = result.status == .failed ? FailureText(result).lines.joined(separator: "\n") : ""
                guard testDescriptors.contains(result.descriptor) || result.descriptor.hasSuffix("_each") else {
                    // An error outside any test: busted writes it into the suite, not as a testcase.
                    errors += 1
                    body += "    <error>\(text(failure))</error>\n"
                    continue
                }
                tests += 1
                let open = "    <testcase classname=\"\(attribute(report.path)):\(result.line)\" name=\"\(attribute(result.bustedReportName))\""
                switch result.status {
                case .passed:
                    body += open + "/>\n"
                case .skipped:
                    skipped += 1
                    body += open + ">\n      <skipped/>\n    </testcase>\n"
                case .failed:
                    let kind = result.isError ? "error" : "failure"
                    if result.isError { errors += 1 } else { failures += 1 }
                    let headline = FailureText(result).headline
                    let firstLine = headline.split(separator: "\n").first.map(String.init) ?? headline
                    body += open + ">\n      <\(kind) message=\"\(attribute(firstLine))\">\(text(failure))</\(kind)>\n"
                    if !result.output.isEmpty {
                        body += "      <system-out>\(text(result.output.joined(separator: "\n")))</system-out>\n"
                    }
                    body += "    </testcase>\n"
                }
            }
        }
        let suiteErrors = errors - reports.filter { $0.loadError != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites tests=\"\(tests)\" errors=\"\(errors)\" failures=\"\(failures)\" skip=\"\(skipped)\">\n"
        out += topErrors
        out += "  <testsuite name=\"Run 1 of 1\" tests=\"\(tests)\" errors=\"\(suiteErrors)\" failures=\"\(failures)\" skip=\"\(skipped)\">\n"
        out += body
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// One testsuite per file, the file in every testcase's classname.
    static func cdscriptLayout(_ reports: [FileReport]) -> String {
        let total = TestSummary(reports)
        let tests = reports.reduce(0) { $0 + $1.results.count + ($1.loadError == nil ? 0 : 1) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // Errors (raised outside an assertion, files that did not load) apart from failures, as busted's junit counts them.
        out += "<testsuites name=\"cdscript test\" tests=\"\(tests)\" failures=\"\(total.failures)\" errors=\"\(total.errors)\" skipped=\"\(total.skipped)\">\n"
        for report in reports {
            let summary = TestSummary([report])
            let fileErrors = report.loadError == nil ? 0 : 1
            let path = attribute(report.path)
            out += "  <testsuite name=\"\(path)\" tests=\"\(report.results.count + fileErrors)\" failures=\"\(summary.failures)\" errors=\"\(summary.errors)\" skipped=\"\(summary.skipped)\">\n"
            if let loadError = report.loadError {
                out += "    <testcase name=\"(file did not load)\" classname=\"\(path)\" file=\"\(path)\">\n"
                let firstLine = loadError.split(separator: "\n").first.map(String.init) ?? loadError
                out += "      <error message=\"\(attribute(firstLine))\" type=\"load\">\(text(loadError))</error>\n"
                out += "    </testcase>\n"
            }
            for result in report.results {
                let open = "    <testcase name=\"\(attribute(result.name))\" classname=\"\(path)\" file=\"\(path)\" line=\"\(result.line)\""
                switch result.status {
                case .passed:
                    out += open + "/>\n"
                case .skipped:
                    out += open + ">\n      <skipped message=\"pending\"/>\n    </testcase>\n"
                case .failed:
                    let failure = FailureText(result)
                    let firstLine = failure.headline.split(separator: "\n").first.map(String.init) ?? failure.headline
                    out += open + ">\n"
                    let kind = result.isError ? "error" : "failure"
                    out += "      <\(kind) message=\"\(attribute(firstLine))\" type=\"\(kind)\">\(text(failure.lines.joined(separator: "\n")))</\(kind)>\n"
                    if !result.output.isEmpty {
                        out += "      <system-out>\(text(result.output.joined(separator: "\n")))</system-out>\n"
                    }
                    out += "    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Escapes for an attribute value; characters XML 1.0 cannot hold become U+FFFD.
    static func attribute(_ value: String) -> String {
        escape(value, inAttribute: true)
    }

    static func text(_ value: String) -> String {
        escape(value, inAttribute: false)
    }

    private static func escape(_ value: String, inAttribute: Bool) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where inAttribute: out += "&quot;"
            case "\n" where inAttribute: out += "&#10;"
            case "\t" where inAttribute: out += "&#9;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case "\r": out += "&#13;"
            default:
                let v = scalar.value
                let allowed = v >= 0x20 && !(0xFFFE...0xFFFF).contains(v)
                if !allowed {
                    out += "\u{FFFD}"
                } else if v >= 0x7F, VisibleText.hasControls(String(scalar)) {
                    // DEL, C1 controls and bidi overrides: as character references, which
                    // give the parser the same text but no terminal showing the XML a control.
                    out += "&#x" + String(v, radix: 16, uppercase: true) + ";"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
