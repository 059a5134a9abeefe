/// Lua cuts long chunk names to their last 56 characters ("...tail") in error
/// messages and tracebacks. A report must name the test file in full, so that
/// `FILE:LINE` can be opened, so the cut name is put back to the whole path.
struct PathRestorer {
    let path: String
    /// The name as Lua shows it; nil or equal to `path` when it was not cut.
    let shortName: String?

    func restore(_ text: String) -> String {
        guard let shortName, shortName != path, shortName.hasPrefix("...") else { return text }
        return text.replacing(shortName, with: path)
    }

    func restore(_ result: TestResult) -> TestResult {
        var r = result
        r.message = r.message.map(restore)
        r.location = r.location.map(restore)
        r.traceback = r.traceback.map(restore)
        return r
    }
}
