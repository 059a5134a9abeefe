/// How TAP and JUnit name tests: as busted does by default, so that CI
/// history and dashboards keyed on test names survive a switch from busted;
/// or as cdscript did before (`--cdscript-names`): the file first, blocks
/// joined by ` > `, one JUnit testsuite per file.
public enum ReportNames: Sendable {
    case busted
    case cdscript
}

extension TestResult {
    /// The name busted's TAP and junit outputs give this result: the full name
    /// (block names and the test's, joined by spaces); for a hook that failed,
    /// its block's name and the hook's (`outer before_each`, `outer teardown`);
    /// for a block whose body raised, the block's name.
    public var bustedReportName: String {
        let parts = names.isEmpty ? [bustedName] : names
        switch descriptor {
        case "it", "pending", "describe", "context", "insulate", "expose", "file":
            return parts.joined(separator: " ")
        case "before_each", "after_each":
            return (parts.dropLast() + [descriptor]).joined(separator: " ")
        default:
            return (names + [descriptor]).joined(separator: " ")
        }
    }
}
