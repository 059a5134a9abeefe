import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
import LuaHost
import TerminalView

/// Runs test files, each in a fresh Lua state on its own virtual clock.
///
/// A file's state has the `countdown` library, the `clock` table bound to a
/// `VirtualClock` (boot time 0, wall time `wallStart`), and the test API of
/// `TestPrelude` (busted's and luassert's globals, `expect`). The file's main
/// chunk declares its blocks and tests; then they run as busted runs them, in
/// declaration order. Time moves only when a test moves it, and the clock is
/// not reset between the tests of a file. After each test, what it left is
/// undone: countdowns are stopped silently (no hooks run), the global hooks and
/// formatters it registered and the plugins it loaded with `use` are gone, and
/// the view is fresh. Plugins' side effects are recorded, never done.
public final class TestRunner {
    /// 2027-01-01T00:00:00Z: where the virtual wall clock of every file starts.
    public static let defaultWallStart: Nanoseconds = 1_798_761_600 * Time.nanosecondsPerSecond

    /// busted's `--filter` (repeatable): runs only tests whose full name contains
    /// one of these texts or matches it as a Lua pattern.
    public var filters: [String] = []
    /// The one filter, when there is one.
    public var filter: String? {
        get { filters.first }
        set { filters = newValue.map { [$0] } ?? [] }
    }
    public var wallStart: Nanoseconds = TestRunner.defaultWallStart
    /// The zone local clock times (`at = "20:00"`) are read in: UTC, so that a
    /// file gives the same results on every machine.
    public var timeZone: any LocalZone = TimeZone.gmt
    /// Called with each file's fresh host before the file runs: the place to
    /// install more globals (a virtual terminal for `view.*`, say).
    public var prepareHost: (LuaHost) -> Void = { _ in }
    /// Limits for every file's host. With an instruction budget, a test that loops
    /// forever fails with "instruction budget exceeded" instead of hanging the run.
    public var limits: ScriptLimits = .none
    /// The size of the virtual terminal `view.screen()` shows.
    public var screenColumns = 80
    public var screenRows = 24

    /// busted's `--filter-out` (repeatable): leave out tests whose full name contains one of these texts or matches it as a Lua pattern.
    public var filterOuts: [String] = []
    public var filterOut: String? {
        get { filterOuts.first }
        set { filterOuts = newValue.map { [$0] } ?? [] }
    }
    /// busted's `-m/--lpath` and `--cpath`: put before `package.path` and `package.cpath`.
    /// A given one replaces busted's default (`defaultLpath`), as under busted.
    public var lpath: String? = TestRunner.defaultLpath
    public var cpath: String? = TestRunner.defaultCpath
    /// busted's default module paths.
    public static let defaultLpath = "./src/?.lua;./src/?/?.lua;./src/?/init.lua"
    public static let defaultCpath = "./csrc/?.so;./csrc/?/?.so"
    /// busted's `--helper` (with its `-Xhelper` arguments) and `-e` statements:
    /// run in each file's state before the file.
    public var helper: String?
    public var helperArguments: [String] = []
    public var statements: [String] = []
    /// busted's `--sort-tests` and `--shuffle-tests`, with `--seed` (busted's
    /// shuffle on Lua 5.4's generator: the same seed gives busted's order).
    public var sortTests = false
    public var shuffleTests = false
    public var seed: Int64?
    /// busted's `--no-keep-going`: after the first failure or error, no more tests run.
    public var keepGoing = true
    /// busted's `-l/--list`: describe bodies run, tests and hooks do not.
    public var listOnly = false
    /// `--coverage`: count the lines that run (FileReport.coverage).
    public var coverage = false
    /// What a spec sees as `arg`: the interpreter (`arg[-1]`, `arg[0]`) and the command line.
    public var interpreter = CommandLine.arguments.first ?? "cdscript"
    public var arguments: [String] = []
    /// busted's `--tags`: run only tests with one of these `#tag`s in their full name.
    public var tags: [String] = []
    /// busted's `--exclude-tags`: leave out tests with one of these `#tag`s.
    public var excludeTags: [String] = []
    /// `--update-snapshots`: `to_match_snapshot` rewrites stored snapshots that differ.
    public var updateSnapshots = false
    /// The most a test's printed output may hold; more is cut with a note.
    public var outputLimit = 65_536

    /// `--state-dir`, `--store`: the store specs run against (each test under
    /// an id prefix of its own, TestStore.swift); nil gives each test a store in memory.
    public var store: CountdownStoreBackend?
    /// The store of every test of this run (made on first use, from `store`).
    public private(set) lazy var testStore = TestStore(shared: store)

    public init(filter: String? = nil) {
        self.filters = filter.map { [$0] } ?? []
    }

    /// busted's `--no-auto-insulate` (`.busted`'s `["auto-insulate"] = false`):
    /// the files share one Lua state, so what one loads (`package.loaded`) or
    /// sets in `_G` the next ones see, and a library is loaded once for all of
    /// them. Each file still starts with its clock at 0, no countdown, and its
    /// own globals (those it sets without `_G.`), as under busted. The `--helper`
    /// and `-e` statements run once, before the first file.
    public var sharesState = false
    /// The state the files share, once the first has run.
    private var shared: FileSession?

    /// The host, scheduler and session a file runs in: fresh, or the shared ones.
    private func session() -> (session: FileSession, first: Bool) {
        if sharesState, let shared {
            (shared.scheduler.clock as? VirtualClock)?.restart(boot: 0, wall: wallStart)
            return (shared, false)
        }
        let clock = VirtualClock(boot: 0, wall: wallStart)
        let scheduler = Scheduler(clock: clock)
        let host = LuaHost(scheduler: scheduler, limits: limits)
        host.timeZone = timeZone
        host.plugins.recorder = PluginRecorder()
        let session = FileSession(runner: self, host: host, scheduler: scheduler)
        // The machine the file runs on: its store, fresh for each test, and the other processes a test starts.
        session.machine = TestMachine(runner: self, main: host, clock: clock, store: testStore)
        host.reportError = { [weak session] in session?.hookErrors.append($0) }
        VirtualClockLibrary.install(in: host)
        // `view.*` draws on a virtual terminal: view.get, view.press and
        // view.screen() work in tests without a real one.
        host.installView(freshView())
        prepareHost(host)
        if sharesState { shared = session }
        return (session, true)
    }

    /// Runs the tests of the file at `path`.
    public func run(file path: String) -> FileReport {
        let (session, first) = session()
        let host = session.host
        session.firstInState = first
        // The prelude's helpers reach the session through an unretained pointer:
        // it must live until the file is done, not only until its last use here.
        // A shared state's next file must find no countdown left by this one.
        defer { withExtendedLifetime(session) { if sharesState { session.endTest() } } }

        // Signals and `cdscript test`'s CPU-time limit stop this file's Lua code,
        // whatever states the run made before (configuration, other files).
        host.vm.takeSignals()
        let L = host.vm.state
        let base = L.top
        defer { L.setTop(base) }
        // The budget is for the test file's code: its main chunk, each test with its
        // before/after functions (through `run_limited`), and the hooks they fire.
        // The runner's own Lua runs without one, so that a test stopped for its
        // budget is reported like any failure.
        let budget = RunnerBudget(L, instructions: limits.instructionBudget)
        budget.suspend()
        let suiteRef: Int32
        switch loadPrelude(L, testFile: path, session: session) {
        case .success(let ref):
            suiteRef = ref
        case .failure(let message):
            return FileReport(path: path, loadError: message.message)
        }
        let paths = PathRestorer(path: path, shortName: shortName(L, suiteRef))
        if coverage { host.startCoverage() }
        budget.restore()
        // The file's main chunk sees busted's `arg` (the prelude set it), not its own.
        // Its globals are the file's own from its first line (busted's setfenv),
        // so that files sharing a state (--no-auto-insulate) do not share them.
        let loadFailure = host.runScript(atPath: path, settingArg: false) { L in
            L.pushRef(suiteRef)
            L.rawField(-1, "set_env")
            L.pushValue(at: -3)
            _ = L.call(arguments: 1, results: 0)
        }
        budget.suspend()
        if let failure = loadFailure {
            let (message, traceback) = Traceback.split(failure.message)
            let text = traceback.map { message + "\n" + $0 } ?? message
            var report = FileReport(path: path, loadError: paths.restore(text))
            report.loadTraceback = traceback.map { paths.restore($0) }
            report.loadErrorRaised = failure.kind == .runtime
            return report
        }
        if !session.hookErrors.isEmpty {
            var report = FileReport(path: path, loadError: paths.restore(session.hookErrors.joined(separator: "\n")))
            report.loadErrorRaised = true
            return report
        }

        // Countdowns and elements made while the file was collected would leak into its first test.
        session.endTest()
        var report = FileReport(path: path)
        let ran = call(L, suiteRef, "run") { () -> Int32 in
            L.pushTable(fields: 3)
            pushList(L, filters, field: "filter")
            pushList(L, filterOuts, field: "filter_out")
            pushSet(L, tags, field: "tags")
            pushSet(L, excludeTags, field: "exclude_tags")
            setFlag(L, sortTests, field: "sort")
            setFlag(L, shuffleTests, field: "shuffle")
            setFlag(L, !keepGoing, field: "stop_on_failure")
            setFlag(L, listOnly, field: "list")
            if let seed {
                L.push(Int(seed))
                L.setRawField(-2, "seed")
            }
            return 1
        }
        switch ran {
        case .some(LUA_TTABLE):
            report.declaredTests = L.integerField(-1, "declared") ?? 0
            if coverage { report.coverage = CoverageData(counted: host.takeCoverageCounts()) }
            let count = L.rawLength(at: -1)
            for index in stride(from: 1, through: Int(count), by: 1) {
                L.rawItem(-1, index)
                report.results.append(paths.restore(readResult(L)))
                L.pop()
            }
        default:
            report.loadError = "cdscript: internal error in the test runner: \(L.string(at: -1) ?? "?")"
        }
        L.setTop(base)
        return report
    }

    /// `names` as a list in field `field` of the table on top (nothing when empty).
    private func pushList(_ L: LuaState, _ names: [String], field: String) {
        guard !names.isEmpty else { return }
        L.pushList(names)
        L.setRawField(-2, field)
    }

    private func setFlag(_ L: LuaState, _ on: Bool, field: String) {
        guard on else { return }
        L.push(true)
        L.setRawField(-2, field)
    }

    /// `names` as a set table `{[name] = true}` in field `field` of the table on top.
    private func pushSet(_ L: LuaState, _ names: [String], field: String) {
        guard !names.isEmpty else { return }
        L.pushTable(fields: Int32(names.count))
        for name in names {
            L.push(true)
            L.setRawField(-2, name)
        }
        L.setRawField(-2, field)
    }

    /// Loads the test API; leaves nothing on the stack and returns a registry
    /// reference to the runner's table, or why it did not load.
    private func loadPrelude(_ L: LuaState, testFile: String, session: FileSession) -> Result<Int32, PreludeFailure> {
        let status = L.load(TestPrelude.source, chunkName: TestPrelude.chunkName)
        guard status == LUA_OK else {
            return .failure(PreludeFailure("cdscript: internal error: the test API did not load: \(L.string(at: -1) ?? "?")"))
        }
        L.push(testFile)
        session.pushHelpers(L)
        guard L.call(arguments: 2, results: 1) == LUA_OK, L.type(at: -1) == LUA_TTABLE else {
            let message = L.string(at: -1) ?? "?"
            // A missing dependency (luassert), a failing --helper or -e is said as it is, without a traceback.
            if ["cdscript test needs", "--helper ", "-e: "].contains(where: message.hasPrefix) {
                return .failure(PreludeFailure(Traceback.split(message).message))
            }
            return .failure(PreludeFailure("cdscript: internal error: the test API did not load: \(message)"))
        }
        return .success(L.ref())
    }

    struct PreludeFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// `run_limited(fn, handler)` for the prelude: `xpcall(fn, handler)` as one
    /// callback of the test file, with the runner's instruction budget.
    static let runLimited: cd_host_function = { L, context in
        let session = Unmanaged<FileSession>.fromOpaque(context!).takeUnretainedValue()
        let L = LuaState(L!)
        L.setTop(2)
        L.pushValue(at: 2) // the handler, at 3
        L.pushValue(at: 1) // the function, at 4
        let budget = RunnerBudget(L, instructions: session.runner.limits.instructionBudget)
        budget.restore()
        // Each test gets a budget of its own, though it runs inside the prelude's call.
        let status = L.callAsCallback(arguments: 0, results: 1, handler: 3)
        budget.suspend()
        L.push(status == LUA_OK)
        L.insert(at: -2)
        return 2
    }

    /// The test file's name as Lua shows it (cut to "...tail" when long).
    private func shortName(_ L: LuaState, _ suiteRef: Int32) -> String? {
        L.pushRef(suiteRef)
        defer { L.pop() }
        return L.textField(-1, "short_src")
    }

    /// Calls `suite[name](args...)` in protected mode with one result left on
    /// the stack; returns its Lua type, or nil on error (the message on top).
    private func call(_ L: LuaState, _ suiteRef: Int32, _ name: String, arguments: () -> Int32) -> Int32? {
        L.pushRef(suiteRef)
        L.rawField(-1, name)
        L.remove(at: -2)
        let count = arguments()
        guard L.call(arguments: count, results: 1) == LUA_OK else { return nil }
        return L.type(at: -1)
    }

    /// Reads the result table on top of the stack.
    private func readResult(_ L: LuaState) -> TestResult {
        let statusText = L.textField(-1, "status")
        // A listed test (--list) did not run; it is reported as passed, and only its name and line are read.
        let status = statusText == "listed" ? .passed : statusText.flatMap(TestResult.Status.init(rawValue:)) ?? .failed
        var names: [String] = []
        if L.rawField(-1, "names") == LUA_TTABLE {
            for i in stride(from: 1, through: L.rawLength(at: -1), by: 1) {
                L.rawItem(-1, i)
                names.append(L.string(at: -1) ?? "")
                L.pop()
            }
        }
        L.pop()
        let isError = L.rawField(-1, "is_error") == LUA_TBOOLEAN && L.boolean(at: -1)
        L.pop()
        let output = L.textField(-1, "output") ?? ""
        var message = L.textField(-1, "message")
        var traceback = L.textField(-1, "traceback").map(Traceback.clean)
        // An error raised by a hook carries the hook's own traceback, which goes
        // deeper than the test's: show that one.
        if let raised = message.map(Traceback.split), let inner = raised.traceback {
            message = raised.message
            traceback = inner
        }
        var result = TestResult(
            name: L.textField(-1, "name") ?? "?",
            status: status,
            line: L.integerField(-1, "line") ?? 0,
            message: message,
            location: L.textField(-1, "location"),
            expected: L.textField(-1, "expected"),
            actual: L.textField(-1, "actual"),
            traceback: traceback.flatMap { $0.isEmpty ? nil : $0 },
            output: output.isEmpty ? [] : output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init),
            isError: isError, names: names, descriptor: L.textField(-1, "descriptor") ?? "it")
        if L.rawField(-1, "duration") == LUA_TNUMBER { result.duration = Measured(seconds: L.number(at: -1) ?? 0) }
        L.pop()
        // Hooks that raised outside a clock call (in a start's first tick, a
        // cancel's on_done) fail the test too.
        var hookErrors: [String] = []
        if L.rawField(-1, "hook_errors") == LUA_TTABLE {
            for i in stride(from: 1, through: L.rawLength(at: -1), by: 1) {
                L.rawItem(-1, i)
                if let text = L.string(at: -1) { hookErrors.append(text) }
                L.pop()
            }
        }
        L.pop()
        if !hookErrors.isEmpty {
            let hooks = hookErrors.map(Traceback.split)
            let messages = hooks.map(\.message).joined(separator: "\n")
            if result.status == .failed {
                result.message = (result.message ?? "") + "\n" + messages
            } else {
                result.status = .failed
                result.isError = true
                result.message = messages
                result.traceback = hooks.first?.traceback
            }
        }
        return result
    }

    /// An empty virtual terminal for `view.*`; each test gets its own.
    func freshView() -> ViewController {
        ViewController(output: .screen(VirtualTerminal(columns: screenColumns, rows: screenRows), colours: false))
    }

    /// Ends what a test left running without calling hooks, so the next test
    /// starts with no countdowns.
    func stopAll(_ scheduler: Scheduler) {
        for key in scheduler.activeKeys {
            scheduler.cancel(key, reason: .stopped)
        }
    }
}


/// Switches a state's instruction budget off while the runner's own Lua runs,
/// and back on for the test file's code.
private struct RunnerBudget {
    let state: LuaState
    let instructions: Int64

    init(_ L: LuaState, instructions: Int64) {
        state = L
        self.instructions = instructions
    }

    func suspend() { state.instructionBudget = 0 }
    func restore() { state.instructionBudget = instructions }
}

extension TestRunner {
    /// Why the test API cannot be set up on this machine (luassert not found on
    /// package.path, which LUA_PATH_5_4 sets as for `lua5.4`), or nil.
    public static func missingDependency() -> String? {
        let probe = String(decoding: PackageResources.luassert_probe_lua, as: UTF8.self)
        let text = (try? LuaEvaluation.run(probe, arguments: [], results: 1).first) ?? ""
        return text.isEmpty ? nil : text
    }
}
