import CLua
import CLuaShim
import CountdownCore
import LuaHost

/// The helpers `process.*` and a process's methods (Lua/test_processes.lua) call,
/// in the prelude's `H`. Each runs as a clock function does: refused inside a
/// hook, and raising the hook errors it caused (in any process) when it is done.
extension TestMachine {
    func pushHelpers(_ L: LuaState) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let functions: [(String, cd_host_function)] = [
            ("process_start", Self.startProcess),
            ("process_kill", Self.killProcess),
            ("process_suspend", Self.suspendProcess),
            ("process_resume", Self.resumeProcess),
            ("process_state", Self.processState),
            ("process_run", Self.runInProcess),
            ("process_printed", Self.printedByProcess),
            ("process_recorded", Self.recordedByProcess),
            ("process_reboot", Self.rebootMachine),
            ("process_stored", Self.storedCountdowns),
        ]
        for (name, function) in functions {
            L.pushHostFunction(function, context: context)
            L.setRawField(-2, name)
        }
    }

    private static func call(_ L: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ function: String,
                             _ body: (TestMachine, LuaState) throws -> Int32) -> Int32 {
        let machine = Unmanaged<TestMachine>.fromOpaque(context!).takeUnretainedValue()
        return VirtualClockLibrary.testLibraryCall(L, host: machine.main, function: function) { L in
            // What the test's own code changed reaches the other processes before they are asked.
            machine.deliverChanges()
            let results = try body(machine, L)
            // What another process changed reaches this one (and the others) before the call returns.
            machine.deliverChanges()
            return results
        }
    }

    /// The process numbered by argument 1.
    private func process(_ L: LuaState, _ function: String) throws -> TestProcess {
        guard let number = L.number(at: 1).flatMap({ Int(exactly: $0) }) else {
            throw TestProcess.Failure("\(function): expected a process")
        }
        return try process(number)
    }

    private func running(_ L: LuaState, _ function: String) throws -> TestProcess {
        let process = try process(L, function)
        switch process.state {
        case .running: return process
        case .suspended: throw TestProcess.Failure("\(function): process \(process.number) (\(process.name)) is suspended; resume it first")
        case .killed: throw TestProcess.Failure("\(function): process \(process.number) (\(process.name)) was killed")
        }
    }

    /// `H.process_start(path, source, name, arguments)`: the new process's number.
    static let startProcess: cd_host_function = { L, context in
        call(L, context, "process.start") { machine, L in
            var arguments: [String] = []
            for index in stride(from: 1, through: L.rawLength(at: 4), by: 1) {
                L.rawItem(4, index)
                arguments.append(L.string(at: -1) ?? "")
                L.pop()
            }
            let process = try machine.start(path: L.string(at: 1), source: L.string(at: 2), name: L.string(at: 3) ?? "?", arguments: arguments)
            L.push(process.number)
            return 1
        }
    }

    static let killProcess: cd_host_function = { L, context in
        call(L, context, "kill") { machine, L in
            machine.kill(try machine.process(L, "kill"))
            return 0
        }
    }

    static let suspendProcess: cd_host_function = { L, context in
        call(L, context, "suspend") { machine, L in
            let process = try machine.process(L, "suspend")
            guard process.state != .killed else { throw TestProcess.Failure("suspend: process \(process.number) (\(process.name)) was killed") }
            machine.suspend(process)
            return 0
        }
    }

    static let resumeProcess: cd_host_function = { L, context in
        call(L, context, "resume") { machine, L in
            let process = try machine.process(L, "resume")
            guard process.state != .killed else { throw TestProcess.Failure("resume: process \(process.number) (\(process.name)) was killed") }
            machine.resume(process)
            return 0
        }
    }

    static let processState: cd_host_function = { L, context in
        call(L, context, "state") { machine, L in
            switch try machine.process(L, "state").state {
            case .running: L.push("running")
            case .suspended: L.push("suspended")
            case .killed: L.push("killed")
            }
            return 1
        }
    }

    /// `H.process_run(number, code, ...)`: what the code returns in that process.
    static let runInProcess: cd_host_function = { L, context in
        call(L, context, "run") { machine, L in
            let process = try machine.running(L, "run")
            guard let code = L.string(at: 2) else { throw TestProcess.Failure("run: expected Lua code as a string, got \(L.typeName(at: 2))") }
            var arguments: [LuaValue] = []
            if L.top > 2 {
                for index in 3...L.top { arguments.append(try LuaValue.read(L, at: index)) }
            }
            let results = try process.run(code, arguments: arguments)
            guard lua_checkstack(L.raw, Int32(results.count) + 2) != 0 else { throw TestProcess.Failure("run: too many results") }
            results.forEach { $0.push(L) }
            return Int32(results.count)
        }
    }

    static let printedByProcess: cd_host_function = { L, context in
        call(L, context, "printed") { machine, L in
            L.pushList(try machine.process(L, "printed").output)
            return 1
        }
    }

    /// `H.process_recorded(number, "ticks" | "ends")`.
    static let recordedByProcess: cd_host_function = { L, context in
        call(L, context, "recorded") { machine, L in
            let process = try machine.process(L, "recorded")
            try process.recorded(L.string(at: 2) == "ends" ? "ends" : "ticks").push(L)
            return 1
        }
    }

    /// `H.process_reboot(seconds)`.
    static let rebootMachine: cd_host_function = { L, context in
        call(L, context, "process.reboot") { machine, L in
            guard let seconds = L.number(at: 1), let downtime = Time.nanoseconds(fromSeconds: seconds), downtime >= 0 else {
                throw TestProcess.Failure("process.reboot: expected the seconds the machine was down (a number >= 0), got \(L.typeName(at: 1))")
            }
            machine.reboot(downtime: downtime)
            return 0
        }
    }

    /// `H.process_stored()`: the test's stored countdowns as `cdscript list --json`
    /// shows them now: `{id, state, kind, remaining, total, every, deadline, overtime,
    /// title, actions}`, ordered by id. Where the listing writes `null` the field is
    /// absent (a Lua table holds no nil): `deadline` for a paused countdown, `overtime`
    /// (seconds past the end) for one started without `overtime`, `title` for one
    /// without a title; `actions` is a list, empty when it names none. A test holds the two
    /// shapes together (StoredShapeTests).
    static let storedCountdowns: cd_host_function = { L, context in
        call(L, context, "process.stored") { machine, L in
            let now = StoreInstant(boot: machine.clock.boot, wall: machine.clock.wallNow(), bootID: machine.bootID)
            let records = try machine.store.view(member: 0).list()
            L.pushTable(array: Int32(records.count))
            for (index, record) in records.enumerated() {
                L.pushTable(fields: 10)
                L.push(record.id)
                L.setRawField(-2, "id")
                L.push(record.listedState(at: now))
                L.setRawField(-2, "state")
                L.push(record.kind.rawValue)
                L.setRawField(-2, "kind")
                for (name, value) in [("remaining", record.remaining(at: now)), ("total", record.total), ("every", record.every)] {
                    lua_pushnumber(L.raw, Time.seconds(value))
                    L.setRawField(-2, name)
                }
                if record.overtime {
                    lua_pushnumber(L.raw, Time.seconds(record.timePastEnd(at: now)))
                    L.setRawField(-2, "overtime")
                }
                if record.state != .paused {
                    L.push(UTCTimestamp.iso8601(record.wallDeadline(at: now)))
                    L.setRawField(-2, "deadline")
                }
                if let title = record.title {
                    L.push(title)
                    L.setRawField(-2, "title")
                }
                L.pushTable(array: Int32(record.actions.count))
                for (position, name) in record.actions.enumerated() {
                    L.push(name)
                    L.setRawItem(-2, position + 1)
                }
                L.setRawField(-2, "actions")
                L.setRawItem(-2, index + 1)
            }
            return 1
        }
    }
}
