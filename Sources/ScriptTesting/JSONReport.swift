import CountdownCore

/// busted's JSON output (`-o json`): one document with `successes`, `failures`,
/// `errors`, `pendings` and `duration`, each element as busted's output
/// handler formats it: `name` (the full name, joined by spaces), `message`,
/// `trace` (where it failed: `source`, `short_src`, `currentline`, `what`,
/// `traceback`, `message`), `element` (`name`, `descriptor`, `attributes`,
/// `trace` of its declaration) and `isError` for errors. Keys are sorted, so the
/// same results give the same document; only `duration` is measured.
public enum JSONReport {
    public static func json(_ reports: [FileReport], duration: Double, randomSeed: Int64? = nil) -> String {
        var successes: [JSONValue] = [], failures: [JSONValue] = [], errors: [JSONValue] = [], pendings: [JSONValue] = []
        for report in reports {
            if let loadError = report.loadError {
                let element: JSONValue = .object(["name": .string(report.path), "descriptor": .string("file"), "attributes": .array([]),
                                                  "trace": trace(report.path, line: 0, message: report.path)])
                // The whole message: a failed require's lines name the paths it tried.
                let message = report.loadMessage ?? loadError
                errors.append(.object(["name": .string(report.path), "message": .string(message), "isError": .bool(true),
                                       "trace": trace(report.path, line: 0, message: message, traceback: report.loadTraceback ?? loadError), "element": element]))
            }
            for result in report.results {
                let (name, leaf, descriptor) = bustedElement(result)
                let elementTrace = trace(report.path, line: result.line, message: leaf ?? descriptor)
                var element: [String: JSONValue] = ["descriptor": .string(descriptor), "attributes": .array([]), "trace": elementTrace]
                element["name"] = leaf.map { .string($0) }
                var entry: [String: JSONValue] = ["name": .string(name), "element": .object(element)]
                if let randomSeed { entry["randomseed"] = .int(Int(randomSeed)) }
                switch result.status {
                case .passed:
                    entry["trace"] = elementTrace
                    successes.append(.object(entry))
                case .skipped:
                    entry["trace"] = elementTrace
                    if let message = result.message { entry["message"] = .string(message) }
                    pendings.append(.object(entry))
                case .failed:
                    let message = bustedMessage(result)
                    entry["message"] = .string(message)
                    let (file, line) = location(result.location, default: (report.path, result.line))
                    entry["trace"] = trace(file, line: line, message: message, traceback: result.traceback)
                    if result.isError {
                        entry["isError"] = .bool(true)
                        errors.append(.object(entry))
                    } else {
                        failures.append(.object(entry))
                    }
                }
            }
        }
        let document: JSONValue = .object(["successes": .array(successes), "failures": .array(failures), "errors": .array(errors),
                                           "pendings": .array(pendings), "duration": .number(duration)])
        return document.text() + "\n"
    }

    /// The full name, the element's own name (nil for busted's unnamed hooks) and
    /// descriptor, as busted names what failed: a test, or the hook or block part
    /// that raised (`outer before_each`, `outer setup` of a `strict_setup`).
    static func bustedElement(_ result: TestResult) -> (name: String, leaf: String?, descriptor: String) {
        let names = result.names.isEmpty ? [result.bustedName] : result.names
        switch result.descriptor {
        case "it", "pending":
            return (names.joined(separator: " "), names.last, result.descriptor)
        case "before_each", "after_each":
            return ((names.dropLast() + [result.descriptor]).joined(separator: " "), nil, result.descriptor)
        case "lazy_setup", "lazy_teardown":
            return ((names + [result.descriptor]).joined(separator: " "), nil, result.descriptor)
        case "setup", "teardown":
            return ((names + [result.descriptor]).joined(separator: " "), result.descriptor, "strict_" + result.descriptor)
        default:
            // An error in a block's body: the block itself (busted's context, insulate and expose are describes).
            return (names.joined(separator: " "), names.last, "describe")
        }
    }

    /// The message as busted's rewriteMessage gives it: the test's `FILE:LINE: `
    /// goes first only when the message's first line names no `FILE:LINE: ` of
    /// its own (an error raised inside luassert keeps luassert's).
    static func bustedMessage(_ result: TestResult) -> String {
        let message = result.message ?? "failed"
        let firstLine = message.prefix { $0 != "\n" }
        guard let location = result.location, firstLine.firstMatch(of: /:\d+:[ ]/) == nil else { return message }
        return location + ": " + message
    }

    /// busted's trace table: where (`short_src`, `currentline`) and, for failures, the traceback.
    private static func trace(_ file: String, line: Int, message: String, traceback: String? = nil) -> JSONValue {
        var t: [String: JSONValue] = ["source": .string("@" + file), "short_src": .string(file), "currentline": .int(line),
                                      "what": .string("Lua"), "message": .string(message)]
        // busted's tracebacks start with a newline before "stack traceback:"; a
        // trace without one (a passing test's) has none rather than a made-up one.
        if let traceback { t["traceback"] = .string("\n" + traceback + "\n") }
        return .object(t)
    }

    /// `FILE:LINE` split; the default when there is none.
    private static func location(_ text: String?, default fallback: (String, Int)) -> (String, Int) {
        guard let text, let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...]) else { return fallback }
        return (String(text[..<colon]), line)
    }
}
