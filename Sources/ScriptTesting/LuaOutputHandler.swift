import CLua
import CLuaShim
import FoundationEssentials
import LuaHost

/// One of busted's output handlers written in Lua (`-o FILE.lua`, `-o MODULE`),
/// run in a Lua state of its own (Lua/output_handler.lua): it is loaded as
/// busted loads it and hears busted's events for each file's results as the
/// file finishes, and the suite's end after the last. It writes what it writes.
public final class LuaOutputHandler {
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private let vm: LuaVM
    private let driver: Int32

    /// Loads the handler `name` with busted's options for it (`arguments` are -Xoutput's).
    public init(name: String, arguments: [String], verbose: Bool, suppressPending: Bool, deferPrint: Bool) throws(Failure) {
        vm = LuaVM()
        let L = vm.state
        let status = L.load(String(decoding: PackageResources.output_handler_lua, as: UTF8.self), chunkName: "=(cdscript output handler)")
        guard status == LUA_OK else { throw Failure(message: "internal error: \(L.string(at: -1) ?? "?")") }
        L.push(name)
        L.pushTable(fields: 6)
        for (key, on) in [("verbose", verbose), ("suppressPending", suppressPending), ("deferPrint", deferPrint), ("enableSound", false)] {
            L.push(on)
            L.setRawField(-2, key)
        }
        L.push("en")
        L.setRawField(-2, "language")
        L.push("utfTerminal")
        L.setRawField(-2, "defaultOutput")
        L.pushList(arguments)
        L.setRawField(-2, "arguments")
        guard BustedMediator.push(L) else { throw Failure(message: "internal error: the event bus did not load") }
        guard L.call(arguments: 3, results: 1) == LUA_OK, L.type(at: -1) == LUA_TTABLE else {
            throw Failure(message: Traceback.split(L.string(at: -1) ?? "?").message)
        }
        driver = L.ref()
    }

    /// Tells the handler one file's results; an error it raises is returned.
    public func file(_ report: FileReport) -> String? {
        call("file") { L in
            L.pushTable(fields: 3)
            L.push(report.path)
            L.setRawField(-2, "path")
            if let loadError = report.loadError {
                L.push(loadError)
                L.setRawField(-2, "load_error")
            }
            L.pushTable(array: Int32(report.results.count))
            for (i, result) in report.results.enumerated() {
                Self.push(L, result)
                L.setRawItem(-2, i + 1)
            }
            L.setRawField(-2, "results")
            return 1
        }
    }

    /// The suite's end (and busted's `exit`): most handlers write their summary here.
    public func finish() -> String? {
        call("finish") { _ in 0 }
    }

    private func call(_ name: String, arguments: (LuaState) -> Int32) -> String? {
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(driver)
        L.rawField(-1, name)
        let count = arguments(L)
        guard L.call(arguments: count, results: 0) == LUA_OK else {
            return "the output handler raised: " + Traceback.split(L.string(at: -1) ?? "?").message
        }
        return nil
    }

    private static func push(_ L: LuaState, _ result: TestResult) {
        L.pushTable(fields: 10)
        L.pushList(result.names.isEmpty ? [result.name] : result.names)
        L.setRawField(-2, "names")
        let status: String
        switch result.status {
        case .passed: status = "passed"
        case .failed: status = "failed"
        case .skipped: status = "skipped"
        }
        let fields: [(String, String?)] = [("status", status), ("descriptor", result.descriptor),
                                          ("message", result.status == .failed ? FailureText(result).headline : result.message),
                                          ("traceback", result.traceback)]
        for (key, value) in fields {
            guard let value else { continue }
            L.push(value)
            L.setRawField(-2, key)
        }
        L.push(result.line)
        L.setRawField(-2, "line")
        L.push(result.isError)
        L.setRawField(-2, "is_error")
        if let location = result.location, let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) {
            L.push(String(location[..<colon]))
            L.setRawField(-2, "file")
            L.push(line)
            L.setRawField(-2, "failure_line")
        }
    }
}
