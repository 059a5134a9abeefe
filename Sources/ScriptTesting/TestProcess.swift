import CLua
import CountdownCore
import FoundationEssentials
import LuaHost
#if canImport(Glibc)
import Glibc
#endif

/// Another process on a test's machine (`process.start`): a script in a Lua
/// state of its own, with its own scheduler and virtual terminal, on the test's
/// clock and store. What it prints and the ticks and ends of its countdowns are
/// kept for the test, also after it was killed.
final class TestProcess {
    enum State { case running, suspended, killed }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    let number: Int
    let name: String
    let path: String?
    let source: String?
    let arguments: [String]
    let host: LuaHost
    var state = State.running
    /// Its printed lines, up to `printedLimit`.
    private(set) var output: [String] = []
    static let printedLimit = 10_000
    /// A registry reference to the recorder process_boot.lua returned.
    private var recorderRef: Int32 = LUA_NOREF

    init(number: Int, name: String, path: String?, source: String?, arguments: [String], host: LuaHost) {
        self.number = number
        self.name = name
        self.path = path
        self.source = source
        self.arguments = arguments
        self.host = host
    }

    func printed(_ line: String) {
        if output.count < Self.printedLimit {
            output.append(line)
        } else if output.count == Self.printedLimit {
            output.append("... (output cut at \(Self.printedLimit) lines)")
        }
    }

    /// Hermetic time (as in the test) and the recorder of ticks and ends, before the script.
    func boot() throws {
        VirtualClockLibrary.install(in: host)
        let L = host.vm.state
        let base = L.top
        defer { L.setTop(base) }
        let parts = [(PackageResources.test_time_lua, "=(cdscript test: process time)"),
                     (PackageResources.process_boot_lua, "=(cdscript test: process)")]
        for (index, (text, chunkName)) in parts.enumerated() {
            guard L.load(String(decoding: text, as: UTF8.self), chunkName: chunkName) == LUA_OK,
                  L.call(arguments: 0, results: 1) == LUA_OK else {
                throw Failure("internal error: process \(number) did not start: \(L.string(at: -1) ?? "?")")
            }
            if index == parts.count - 1 { recorderRef = L.ref() } else { L.pop() }
        }
    }

    /// Runs `code` in this process with `arguments`; returns what it returns.
    func run(_ code: String, arguments: [LuaValue]) throws -> [LuaValue] {
        let L = host.vm.state
        let base = L.top
        defer { L.setTop(base) }
        guard L.load(code, chunkName: "=(process \(number))") == LUA_OK else {
            throw Failure("process \(number): \(L.string(at: -1) ?? "?")")
        }
        guard lua_checkstack(L.raw, Int32(arguments.count) + 4) != 0 else { throw Failure("too many arguments") }
        for argument in arguments { argument.push(L) }
        guard L.call(arguments: Int32(arguments.count), results: LUA_MULTRET) == LUA_OK else {
            throw Failure("process \(number) (\(name)): \(L.string(at: -1) ?? "?")")
        }
        var results: [LuaValue] = []
        if L.top > base {
            for index in (base + 1)...L.top { results.append(try LuaValue.read(L, at: index)) }
        }
        return results
    }

    /// The recorded ticks (`which` "ticks") or ends ("ends").
    func recorded(_ which: String) throws -> LuaValue {
        let L = host.vm.state
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(recorderRef)
        L.rawField(-1, which)
        guard L.call(arguments: 0, results: 1) == LUA_OK else {
            throw Failure("process \(number): \(L.string(at: -1) ?? "?")")
        }
        return try LuaValue.read(L, at: -1)
    }
}
