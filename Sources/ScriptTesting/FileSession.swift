import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
import LuaHost

/// The Swift side of one test file's run, as the prelude sees it: the helpers
/// it gets as `H` (the budgeted call, the isolation between tests, the hook
/// errors and plugin calls of the test that runs).
final class FileSession {
    unowned let runner: TestRunner
    let host: LuaHost
    let scheduler: Scheduler
    /// Hook errors reported while the current test runs.
    var hookErrors: [String] = []
    /// The store and the other processes of the test that runs (TestMachine.swift).
    var machine: TestMachine?
    /// Whether the file that runs is the first in its Lua state (the prelude runs
    /// --helper and -e only then, and sets up what lasts in the state).
    var firstInState = true

    init(runner: TestRunner, host: LuaHost, scheduler: Scheduler) {
        self.runner = runner
        self.host = host
        self.scheduler = scheduler
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Pushes the helper table `H` for the prelude. The session must outlive the state's use of it.
    func pushHelpers(_ L: LuaState) {
        L.pushTable(fields: 8)
        let functions: [(String, cd_host_function)] = [
            ("run_limited", TestRunner.runLimited),
            ("save", Self.save),
            ("restore", Self.restore),
            ("test_begin", Self.testBegin),
            ("test_end", Self.testEnd),
            ("plugin_calls", Self.pluginCalls),
            ("make_directory", Self.makeDirectory),
            ("hook_errors", Self.takeHookErrors),
        ]
        for (name, function) in functions {
            L.pushHostFunction(function, context: context)
            L.setRawField(-2, name)
        }
        machine?.pushHelpers(L)
        L.push(runner.outputLimit)
        L.setRawField(-2, "output_limit")
        L.push(runner.updateSnapshots)
        L.setRawField(-2, "update_snapshots")
        L.push(firstInState)
        L.setRawField(-2, "first_in_state")
        L.push(runner.coverage)
        L.setRawField(-2, "coverage")
        // What busted gives a spec before it runs (Lua/prelude_busted.lua).
        let texts: [(String, String?)] = [("lpath", runner.lpath), ("cpath", runner.cpath), ("helper", runner.helper), ("interpreter", runner.interpreter)]
        for (name, value) in texts {
            guard let value else { continue }
            L.push(value)
            L.setRawField(-2, name)
        }
        if BustedMediator.push(L) {
            L.setRawField(-2, "new_mediator")
        }
        let lists = [("arguments", runner.arguments), ("statements", runner.statements), ("helper_arguments", runner.helperArguments)]
        for (name, values) in lists {
            L.pushList(values)
            L.setRawField(-2, name)
        }
    }

    /// Ends what a test left: countdowns stopped without hooks, a fresh view
    /// (its buttons and key bindings gone), no recorded plugin calls.
    func endTest() {
        runner.stopAll(scheduler)
        if let problem = machine?.endTest() {
            hookErrors.append("cdscript test: what the test stored could not be removed: \(problem)")
        }
        host.replaceViewController(runner.freshView())
        host.plugins.recorder?.removeAll()
    }

    private static func session(_ context: UnsafeMutableRawPointer?) -> FileSession {
        Unmanaged<FileSession>.fromOpaque(context!).takeUnretainedValue()
    }

    /// `H.save()`: a snapshot of the host's registrations (global hooks, formatters).
    static let save: cd_host_function = { L, context in
        session(context).host.plugins.pushRegistrations(LuaState(L!))
        return 1
    }

    /// `H.restore(snapshot)`.
    static let restore: cd_host_function = { L, context in
        session(context).host.plugins.restoreRegistrations(LuaState(L!), from: 1)
        return 0
    }

    /// `H.test_begin()`: a test starts with no hook errors and no plugin calls.
    static let testBegin: cd_host_function = { L, context in
        let s = session(context)
        s.hookErrors.removeAll()
        s.host.plugins.recorder?.removeAll()
        s.machine?.beginTest()
        return 0
    }

    /// `H.test_end()`: cleans up after the test; returns the hook errors it caused.
    static let testEnd: cd_host_function = { L, context in
        let s = session(context)
        s.endTest()
        let errors = s.hookErrors
        s.hookErrors.removeAll()
        LuaState(L!).pushList(errors)
        return 1
    }

    /// `H.hook_errors()`: the hook errors reported since the last call (or test), then none.
    static let takeHookErrors: cd_host_function = { L, context in
        let s = session(context)
        LuaState(L!).pushList(s.hookErrors)
        s.hookErrors.removeAll()
        return 1
    }

    /// `H.make_directory(path)`: creates the folder (and its parents); true, or nil and why not.
    static let makeDirectory: cd_host_function = { L, context in
        let L = LuaState(L!)
        guard let path = L.string(at: 1) else {
            L.pushNil()
            L.push("expected a path")
            return 2
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            L.push(true)
            return 1
        } catch {
            L.pushNil()
            L.push(ErrorText.line(error))
            return 2
        }
    }

    /// `H.plugin_calls(name)`: what the plugins did in this test (all when name is nil).
    static let pluginCalls: cd_host_function = { L, context in
        let L = LuaState(L!)
        let name = L.string(at: 1)
        if let recorder = session(context).host.plugins.recorder {
            recorder.push(L, plugin: name)
        } else {
            L.pushTable()
        }
        return 1
    }
}
