import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
import LuaHost
import TerminalView
#if canImport(Glibc)
import Glibc
#endif

/// The machine a test file runs on: one virtual clock, the test's store, the
/// current boot, and the processes on it. The test's own Lua state is process
/// 0; `process.start` adds others (TestProcess), each with a Lua state, a
/// scheduler and a view of its own, on the same clock and store.
///
/// Changes a process makes to the store reach the others as a change feed would
/// bring them (StoreFollowing.swift), at once: before the clock moves again,
/// between two steps of it, and before any call on another process returns.
final class TestMachine {
    unowned let runner: TestRunner
    unowned let main: LuaHost
    let clock: VirtualClock
    let group: SchedulerGroup
    let store: TestStore
    /// The processes started in this test, by number (from 1), killed ones included.
    private(set) var processes: [Int: TestProcess] = [:]
    private var lastNumber = 0
    private var boot = 1
    /// Ids each process (0: the test's) has not seen change yet.
    private var unseen: [Int: Set<CountdownID>] = [:]
    private var settling = false

    var bootID: String { "cdscript-test-boot-\(boot)" }

    init(runner: TestRunner, main: LuaHost, clock: VirtualClock, store: TestStore) {
        self.runner = runner
        self.main = main
        self.clock = clock
        self.store = store
        group = SchedulerGroup(clock: clock, schedulers: [main.scheduler])
        group.settle = { [unowned self] in self.deliverChanges() }
        store.changed = { [weak self] member, id in self?.noteChange(by: member, id: id) }
        main.clockGroup = group
        main.store.persistence = store.view(member: 0)
        main.store.bootID = bootID
    }

    /// A test starts on a machine with no other process and an empty store.
    func beginTest() {
        endProcesses()
        store.beginTest()
        main.store.forgetReportedErrors()
        unseen.removeAll()
    }

    /// A test ended: its processes go, and what it stored. Returns why the store
    /// could not be cleaned, if it could not.
    @discardableResult
    func endTest() -> String? {
        endProcesses()
        unseen.removeAll()
        return store.removeStored()
    }

    private func endProcesses() {
        for process in processes.values {
            group.remove(process.host.scheduler)
            runner.stopAll(process.host.scheduler)
            // Its finalizers run now, while the process and the test's host are whole
            // (the library refuses them its functions: the run is over).
            process.host.closeState()
        }
        processes.removeAll()
    }

    // MARK: Processes

    /// Starts a script as another process: `path` (or, without one, `source`,
    /// named `name`) with `arguments`. Returns its number.
    func start(path: String?, source: String?, name: String, arguments: [String]) throws -> TestProcess {
        lastNumber += 1
        let number = lastNumber
        let process = TestProcess(number: number, name: name, path: path, source: source, arguments: arguments,
                                  host: LuaHost(scheduler: Scheduler(clock: clock), limits: runner.limits))
        let host = process.host
        host.timeZone = runner.timeZone
        host.plugins.recorder = PluginRecorder()
        host.plugins.path = main.plugins.path
        host.installView(runner.freshView())
        host.store.persistence = store.view(member: number)
        host.store.bootID = bootID
        // A hook error of another process fails the test that runs it, like one of the test's own.
        // Weak: a finalizer may print or fail while the process goes, after the test.
        host.reportError = { [weak main] message in main?.reportError("process \(number) (\(name)): \(message)") }
        host.plugins.captureOutput { [weak process] line in process?.printed(line) }
        try process.boot()
        processes[number] = process
        group.add(host.scheduler)
        let failure: ScriptFailure?
        if let path {
            failure = host.runScript(atPath: path, arguments: arguments)
        } else {
            failure = host.runScript(source: Data((source ?? "").utf8), chunkName: "=" + name, arguments: [name] + arguments)
        }
        if let failure {
            kill(process)
            throw TestProcess.Failure("process \(number) (\(name)) stopped with an error: \(failure.message)")
        }
        return process
    }

    func process(_ number: Int) throws -> TestProcess {
        guard let process = processes[number] else { throw TestProcess.Failure("no process \(number) in this test") }
        return process
    }

    /// `kill -9`: nothing more runs in it, no hook, no finalizer; what it stored stays.
    func kill(_ process: TestProcess) {
        group.remove(process.host.scheduler)
        process.state = .killed
    }

    /// `kill -STOP`: its ticks wait, and so do the changes others make.
    func suspend(_ process: TestProcess) {
        guard process.state == .running else { return }
        group.remove(process.host.scheduler)
        process.state = .suspended
    }

    /// `kill -CONT`: it learns of what changed meanwhile, then catches up in one
    /// pass (one tick with the true remaining time and `missed`, an end once).
    func resume(_ process: TestProcess) {
        guard process.state == .suspended else { return }
        process.state = .running
        group.add(process.host.scheduler)
        deliverChanges()
        process.host.scheduler.runDue()
        deliverChanges()
    }

    /// The machine reboots after being down for `downtime`: every process is
    /// gone (the test's own countdowns stop, silently, and its view is empty),
    /// the boot id changes and the wall clock has moved on. The boot clock of the
    /// test does not start again from 0 (clock.now() keeps counting from the
    /// file's start), and it did not move: a countdown that went on counting on
    /// it through the reboot shows it.
    func reboot(downtime: Nanoseconds) {
        for process in processes.values where process.state != .killed {
            kill(process)
        }
        runner.stopAll(main.scheduler)
        main.replaceViewController(runner.freshView())
        boot += 1
        main.store.bootID = bootID
        unseen.removeAll()
        clock.setWall(clock.wallNow() + downtime)
    }

    // MARK: Changes between processes

    private func noteChange(by member: Int, id: String) {
        let key = CountdownID(id)
        if member != 0 { unseen[0, default: []].insert(key) }
        for (number, process) in processes where number != member && process.state != .killed {
            unseen[number, default: []].insert(key)
        }
    }

    /// Hands each running process the ids others changed, until none is left
    /// (following a change may make one: a countdown ended by time taken off).
    func deliverChanges() {
        guard !settling, !group.isDispatching else { return }
        settling = true
        defer { settling = false }
        // Bounded: two processes that answer each change with another would otherwise never stop.
        for _ in 0..<10_000 {
            guard let (member, ids) = nextUnseen() else { return }
            unseen[member] = nil
            let host = member == 0 ? main : processes[member]!.host
            host.store.applyChanges(.ids(ids))
        }
    }

    private func nextUnseen() -> (Int, Set<CountdownID>)? {
        for member in unseen.keys.sorted() {
            guard let ids = unseen[member], !ids.isEmpty else { continue }
            if member == 0 || processes[member]?.state == .running { return (member, ids) }
        }
        return nil
    }
}
