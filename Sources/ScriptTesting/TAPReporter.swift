import CountdownCore

/// TAP version 13: one `ok`/`not ok` line per test, failures in a YAML block,
/// pending tests as `# SKIP`, the plan at the end, and the totals as a final
/// comment line. Tests are named as busted's TAP names them (`ok 1 - outer
/// inner test`, `ok 2 - # SKIP outer later`, a file that did not load by its
/// path), or with `.cdscript` names as cdscript did before (`ok 1 - FILE:
/// outer > inner > test`, `ok 2 - FILE: outer > later # SKIP pending`).
public final class TAPReporter: TestReporter {
    private var number = 0
    private let names: ReportNames

    public init(names: ReportNames = .busted) {
        self.names = names
    }

    public func opening() -> [String] { ["TAP version 13"] }

    public func lines(for report: FileReport) -> [String] {
        var lines: [String] = []
        if let loadError = report.loadError {
            number += 1
            // busted: `suite FILE` when the file raised as it ran, `FILE` for a syntax error.
            let description = names == .busted ? Self.escapeDirectives((report.loadErrorRaised ? "suite " : "") + report.path) : "\(Self.escape(report.path)): (file did not load)"
            lines.append("not ok \(number) - \(description)")
            // The message alone, as busted's TAP gives it: no traceback.
            lines += yaml(["message": report.loadMessage ?? loadError, "severity": "error"], order: ["message", "severity"])
        }
        for result in report.results {
            number += 1
            let description = names == .busted ? Self.escapeDirectives(result.bustedReportName) : "\(Self.escape(report.path)): \(Self.escape(result.name))"
            switch result.status {
            case .passed:
                lines.append("ok \(number) - \(description)")
            case .skipped where names == .busted:
                lines.append("ok \(number) - # SKIP \(description)")
            case .skipped:
                lines.append("ok \(number) - \(description) # SKIP pending")
            case .failed:
                lines.append("not ok \(number) - \(description)")
                // An error (raised outside an assertion) is told from a failure by its severity.
                var fields: [String: String] = ["message": result.message ?? "failed", "severity": result.isError ? "error" : "fail"]
                fields["at"] = result.location
                fields["expected"] = result.expected
                fields["actual"] = result.actual
                fields["traceback"] = result.traceback
                if !result.output.isEmpty { fields["output"] = result.output.joined(separator: "\n") }
                lines += yaml(fields, order: ["message", "severity", "at", "expected", "actual", "traceback", "output"])
            }
        }
        return lines
    }

    public func closing(_ summary: TestSummary) -> [String] {
        let errors = summary.errors > 0 ? ["# \(summary.failures) failed by assertions, \(summary.errors) by errors"] : []
        return ["1..\(number)"] + errors + ["# " + summary.line]
    }

    /// busted's names as it writes them (`passes #tag`, `# counts`), with only
    /// a `#` escaped that a TAP reader would take for a SKIP or TODO directive.
    static func escapeDirectives(_ text: String) -> String {
        var out = ""
        let characters = Array(text.replacing("\n", with: " "))
        for (i, character) in characters.enumerated() {
            if character == "#" {
                let rest = String(characters[(i + 1)...]).trimmingPrefix(while: { $0 == " " }).uppercased()
                if rest.hasPrefix("SKIP") || rest.hasPrefix("TODO") {
                    out += "\\#"
                    continue
                }
            }
            out.append(character)
        }
        return out
    }

    /// `#` starts a directive and `\` escapes in a TAP description.
    static func escape(_ text: String) -> String {
        text.replacing("\\", with: "\\\\")
            .replacing("#", with: "\\#")
            .replacing("\n", with: " ")
    }

    /// A YAML block: single lines double-quoted, several lines as literal blocks.
    private func yaml(_ fields: [String: String], order: [String]) -> [String] {
        var lines = ["  ---"]
        for key in order {
            guard let value = fields[key] else { continue }
            if value.contains("\n") {
                lines.append("  \(key): |-")
                // A message keeps its tabs (a failed require's list of paths), as busted's
                // TAP does; YAML takes tabs inside a literal block, past its indentation.
                for line in value.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append("    " + (key == "message" ? String(line) : String(line).replacingTabs()))
                }
            } else {
                lines.append("  \(key): \(Self.quoted(value))")
            }
        }
        lines.append("  ...")
        return lines
    }

    static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
                } else if scalar.value >= 0x80, VisibleText.hasControls(String(scalar)) {
                    // C1 controls and bidi overrides, in YAML's own escape.
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
