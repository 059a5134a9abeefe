import ArgumentParser
import ScriptRunning
import CommandLineWords

/// `cdscript test`: runs Lua test files (busted specs unchanged) on a virtual clock,
/// with busted's command line and `.busted` file (ScriptRunning's TestRun and TestSettings).
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run Lua test files (*_test.lua, *_spec.lua; busted specs unchanged) on a virtual clock.",
        discussion: """
            Each file runs in a fresh Lua state whose clock starts at 0 and moves only
            when a test moves it (clock.advance, clock.next, clock.run_all, clock.stall);
            os.time, os.date and os.clock follow it. busted's blocks and hooks and
            luassert's assert, spy, stub, mock and match are there, as under busted.
            busted's options and .busted file (its _all, default and -r NAME tasks) work
            with busted's meaning; the few that do not are refused with what to use.
            With no path: a .busted file's ROOT, else spec/ when there is one, else tests/.
            The last line is always `N passed, N failed` (errors counted as failed;
            `, N skipped` when some were; a `#` comment with --tap; not with -o junit,
            -o json, a Lua output handler or --list).
            Exit codes: 0 all passed, 1 a test failed or raised, a file did not load or
            no test ran, 4 a path is missing or holds no test files, 5 luassert cannot be
            loaded, 6 the store of --state-dir or --store cannot be used, 64 bad usage,
            74 a report (stdout, --junit FILE, -Xoutput FILE, coverage files) cannot be
            written, 141 the report's reader went away.
            Each test has a store of its own, in memory unless --state-dir or --store
            names a real one (integration tests: each test under an id prefix of its
            own, removed after it).
            """
    )

    @Argument(help: "Test files, or folders searched for *_test.lua and *_spec.lua (default: .busted's ROOT, spec, or tests).", completion: .testPaths)
    var paths: [String] = []

    // busted's options -------------------------------------------------------

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("busted's output handler: \(TestOutput.BuiltIn.namesText) (the first two are the report for people), or a Lua output handler (FILE.lua or a module name) as busted loads it.", valueName: "NAME"), completion: .list(TestOutput.BuiltIn.names))
    var output: String?

    @Option(name: [.customLong("Xoutput", withSingleDash: true), .customLong("Xoutput")], parsing: .unconditionalSingleValue, help: ArgumentHelp("Pass OPTION to the output handler (comma-separated, repeatable): a file name for junit and json; --plain or --color for the terminal outputs.", valueName: "OPTION"))
    var xoutput: [String] = []

    @Flag(name: [.customShort("v"), .customLong("verbose")], inversion: .prefixedNo, help: "busted's verbose output: given to Lua output handlers as busted gives it; cdscript's own reports always show failures' tracebacks.")
    var verbose: Bool?

    @Option(name: [.customShort("p"), .customLong("pattern")], parsing: .singleValue, help: ArgumentHelp("Only run test files whose base name matches this Lua pattern (repeatable; default: *_test.lua and *_spec.lua).", valueName: "PATTERN"))
    var pattern: [String] = []

    @Option(name: .customLong("exclude-pattern"), parsing: .singleValue, help: ArgumentHelp("Leave out test files whose base name matches this Lua pattern (repeatable; wins over --pattern).", valueName: "PATTERN"))
    var excludePattern: [String] = []

    @Flag(name: [.customShort("R"), .customLong("recursive")], inversion: .prefixedNo, help: "Search folders' subfolders too (default).")
    var recursive: Bool?

    @Option(name: [.customShort("m"), .customLong("lpath")], parsing: .singleValue, help: ArgumentHelp("Put PATH before package.path (repeatable; default ./src/?.lua;./src/?/?.lua;./src/?/init.lua).", valueName: "PATH"))
    var lpath: [String] = []

    @Option(name: .customLong("cpath"), parsing: .singleValue, help: ArgumentHelp("Put PATH before package.cpath (repeatable; default ./csrc/?.so;./csrc/?/?.so).", valueName: "PATH"))
    var cpath: [String] = []

    @Option(name: .customLong("helper"), help: ArgumentHelp("A Lua script run before the tests: in each file's fresh state, before the file.", valueName: "PATH"))
    var helper: String?

    @Option(name: [.customLong("Xhelper", withSingleDash: true), .customLong("Xhelper")], parsing: .unconditionalSingleValue, help: ArgumentHelp("Pass OPTION to the helper script as `...` (comma-separated, repeatable).", valueName: "OPTION"))
    var xhelper: [String] = []

    @Option(name: [.customShort("r"), .customLong("run")], help: ArgumentHelp("The task of the .busted file to use (default: its default task).", valueName: "NAME"))
    var runName: String?

    @Option(name: [.customShort("f"), .customLong("config-file")], help: ArgumentHelp("Read busted's configuration from FILE instead of .busted.", valueName: "FILE"))
    var configFile: String?

    @Option(name: [.customShort("C"), .customLong("directory")], parsing: .singleValue, help: ArgumentHelp("Change to DIR before anything else (repeatable; each relative to the one before).", valueName: "DIR"))
    var directory: [String] = []

    @Option(name: .customShort("e"), parsing: .singleValue, help: ArgumentHelp("Run the Lua STATEMENT before the tests: in each file's state, before the file (repeatable).", valueName: "STATEMENT"))
    var statements: [String] = []

    @Flag(name: .customLong("shuffle"), inversion: .prefixedNo, help: "Shuffle the order of the files and of the tests in each block (--shuffle-files and --shuffle-tests); wins over --sort.")
    var shuffle: Bool?

    @Flag(name: .customLong("shuffle-files"), inversion: .prefixedNo, help: "Shuffle the order of the files.")
    var shuffleFiles: Bool?

    @Flag(name: .customLong("shuffle-tests"), inversion: .prefixedNo, help: "Shuffle the order of the tests and blocks in each block, as busted does (the same --seed gives busted's order).")
    var shuffleTests: Bool?

    @Flag(name: .customLong("sort"), inversion: .prefixedNo, help: "Sort the files and the tests in each block by name (--sort-files and --sort-tests).")
    var sort: Bool?

    @Flag(name: .customLong("sort-files"), inversion: .prefixedNo, help: "Sort the files by name.")
    var sortFiles: Bool?

    @Flag(name: .customLong("sort-tests"), inversion: .prefixedNo, help: "Sort the tests and blocks in each block by name.")
    var sortTests: Bool?

    @Option(name: .customLong("seed"), help: ArgumentHelp("The seed of --shuffle and randomize() (default: a random one, shown on stderr).", valueName: "SEED"))
    var seed: Int64?

    @Option(name: .customLong("repeat"), help: ArgumentHelp("Run the tests COUNT times.", valueName: "COUNT"))
    var repeatCount: Int?

    @Flag(name: [.customShort("k"), .customLong("keep-going")], inversion: .prefixedNo, help: "Go on after a failure or an error (default); --no-keep-going stops at the first one.")
    var keepGoing: Bool?

    @Flag(name: [.customShort("l"), .customLong("list")], help: "Print FILE:LINE: NAME of every test instead of running them.")
    var list = false

    @Option(name: .customLong("filter"), parsing: .singleValue, help: ArgumentHelp("Run only tests whose full name contains PATTERN or matches it as a Lua pattern (repeatable: any one).", valueName: "PATTERN"))
    var filter: [String] = []

    @Option(name: .customLong("filter-out"), parsing: .singleValue, help: ArgumentHelp("Leave out tests whose full name contains PATTERN or matches it as a Lua pattern (repeatable; wins over --filter).", valueName: "PATTERN"))
    var filterOut: [String] = []

    @Option(name: [.customShort("t"), .long], parsing: .singleValue, help: ArgumentHelp("Run only tests with one of these #tags in their full name (comma-separated, repeatable).", valueName: "TAGS"))
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), parsing: .singleValue, help: ArgumentHelp("Leave out tests with one of these #tags (comma-separated, repeatable; wins over --tags).", valueName: "TAGS"))
    var excludeTags: [String] = []

    @Flag(name: .customLong("defer-print"), inversion: .prefixedNo, help: "Print the report only when every file has run.")
    var deferPrint: Bool?

    @Flag(name: .customLong("suppress-pending"), inversion: .prefixedNo, help: "Leave pending tests out of the report and the totals.")
    var suppressPending: Bool?

    @Flag(name: .customLong("auto-insulate"), inversion: .prefixedNo, help: "Run each file in a fresh Lua state of its own (default); --no-auto-insulate: the files share one, so a library they load is loaded once and what one puts in _G or package.loaded the next see, as under busted. Each file still starts its clock at 0.")
    var autoInsulate: Bool?

    @Option(name: .customLong("lua"), help: ArgumentHelp("Accepted and not used: cdscript runs its own Lua 5.4 (it says so on stderr).", valueName: "LUA"))
    var lua: String?

    @Flag(name: .customLong("ignore-lua"), help: "Accepted (busted passes it to itself with --lua).")
    var ignoreLua = false

    @Flag(name: [.customShort("c"), .customLong("coverage")], inversion: .prefixedNo, help: "Count the lines of the project's Lua files that run: writes luacov.stats.out (luacov's format) and lcov.info, and a summary on stderr; no luacov needed.")
    var coverage: Bool?

    @Option(name: .customLong("coverage-config-file"), help: ArgumentHelp("luacov's configuration to read include, exclude and modules from (default .luacov).", valueName: "FILE"))
    var coverageConfigFile: String?

    // busted's options that cdscript refuses (validate() says why and what to use);
    // those refused whatever their value are hidden, so help and completion do not offer them.

    @Option(name: .customLong("lang"), help: ArgumentHelp("Refused unless en: cdscript's messages are in English.", valueName: "LANG"))
    var lang: String?

    @Option(name: .customLong("loaders"), parsing: .singleValue, help: ArgumentHelp("Refused unless lua: cdscript runs Lua test files only (no moonscript or terra).", valueName: "NAME"))
    var loaders: [String] = []

    @Flag(name: .customLong("lazy"), inversion: .prefixedNo, help: ArgumentHelp("Refused: setup and teardown stay strict; write lazy_setup and lazy_teardown for lazy ones.", visibility: .hidden))
    var lazy: Bool?

    @Flag(name: [.customShort("s"), .customLong("enable-sound")], inversion: .prefixedNo, help: ArgumentHelp("Refused: cdscript test plays no sounds.", visibility: .hidden))
    var enableSound: Bool?

    // cdscript's own options ---------------------------------------------------

    @Flag(help: "Write TAP version 13 on stdout (as -o TAP).")
    var tap = false

    @Flag(name: .customLong("cdscript-names"), help: "Name tests in TAP and JUnit as cdscript did before: the file first and blocks joined by ` > ` (`FILE: outer > test`), one JUnit testsuite per file. By default they are busted's names and layout.")
    var cdscriptNames = false

    @Flag(name: .customLong("update-snapshots"), help: "Rewrite the snapshots (__snapshots__/FILE.snap) that to_match_snapshot finds different.")
    var updateSnapshots = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report to FILE.", valueName: "FILE"), completion: .file())
    var junit: String?

    // .unconditional: `--budget -5` reaches validate() and its message, not "Missing value".
    // Off by default, as busted has no such limit: its count hook makes tight loops
    // cost about twice as much, and a correct but long test (sha1.lua's random
    // tests) ran out of it. --cpu-limit stops a runaway test at no cost until it fires.
    @Option(parsing: .unconditional, help: ArgumentHelp("Lua instructions one test (with the hooks it fires) may run before it fails: a deterministic limit, at about half the speed for Lua code. 0 (the default): no count; --cpu-limit stops a test that loops forever.", valueName: "N"))
    var budget: Int64 = 0

    @Option(name: .customLong("cpu-limit"), parsing: .unconditional, help: ArgumentHelp("CPU seconds one test (with the hooks it fires) may run before it fails with an error, so that a test that loops forever does not hang the run; 0 for no limit.", valueName: "SECONDS"))
    var cpuLimit: Double = Self.defaultCPULimit

    /// The CPU-time limit per test by default, in seconds (TestFlags says why 60).
    static let defaultCPULimit = TestFlags.defaultCPULimit

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp("Memory a test file's Lua state may hold, as for run: bytes, or with K, M or G (512M); 0 for no limit. A test that goes past it fails with the memory error.", valueName: "SIZE"))
    var memoryLimit: String = "512M"

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Run the specs against the SQLite store in DIR (integration tests) instead of a store in memory per test; each test's countdowns are kept apart under an id prefix and removed after it.", valueName: "DIR"), completion: .directory)
    var stateDir: String?

    @Option(name: .customLong("store"), help: ArgumentHelp("Run the specs against Redis: redis://[:PASSWORD@]HOST[:PORT][/DB] or rediss://… (TLS), as --state-dir.", valueName: "URL"))
    var storeURL: String?

    @OptionGroup var redisTLS: RedisTLSOptions

    @Option(name: .customLong("plugin-path"), help: ArgumentHelp("Also look for plugins in DIR (repeatable; after ./plugins and ~/.config/cdscript/plugins).", valueName: "DIR"), completion: .directory)
    var pluginPath: [String] = []

    func validate() throws {
        guard budget >= 0 else { throw ValidationError("--budget must be 0 (no limit) or a positive number of instructions, got \(budget)") }
        guard cpuLimit.isFinite, cpuLimit == 0 || (cpuLimit >= 0.1 && cpuLimit <= 86400) else {
            throw ValidationError("--cpu-limit must be 0 (no limit) or a number of seconds from 0.1 to 86400, got \(cpuLimit)")
        }
        _ = try HardeningOptions.bytes(memoryLimit)
        if let repeatCount, repeatCount < 1 { throw ValidationError("--repeat must be 1 or more, got \(repeatCount)") }
        if let refusal = refusal { throw ValidationError(refusal) }
        if let output { _ = try exitingAsCommand { try TestOutput(name: output, options: [], verbose: false) } }
    }

    /// Why one of busted's options that cdscript does not support was given, if one was.
    var refusal: String? {
        if let lang, lang != "en" {
            return "--lang \(lang): cdscript test's messages are in English only; drop --lang"
        }
        if let other = TestFlags.tagList(loaders).first(where: { $0 != "lua" }) {
            return "--loaders \(other): cdscript test runs Lua test files only; drop --loaders (or keep it at lua)"
        }
        if lazy == true {
            return "--lazy: cdscript test keeps setup and teardown strict; write lazy_setup and lazy_teardown where you want lazy ones"
        }
        if enableSound == true {
            return "-s/--enable-sound: cdscript test plays no sounds; drop it"
        }
        return nil
    }

    func run() throws {
        var flags = TestFlags()
        (flags.paths, flags.output, flags.xoutput, flags.verbose, flags.tap, flags.cdscriptNames) = (paths, output, xoutput, verbose, tap, cdscriptNames)
        (flags.pattern, flags.excludePattern, flags.recursive, flags.lpath, flags.cpath) = (pattern, excludePattern, recursive, lpath, cpath)
        (flags.helper, flags.xhelper, flags.runName, flags.configFile, flags.directory) = (helper, xhelper, runName, configFile, directory)
        (flags.statements, flags.shuffle, flags.shuffleFiles, flags.shuffleTests) = (statements, shuffle, shuffleFiles, shuffleTests)
        (flags.sort, flags.sortFiles, flags.sortTests, flags.seed, flags.repeatCount) = (sort, sortFiles, sortTests, seed, repeatCount)
        (flags.keepGoing, flags.list, flags.filter, flags.filterOut, flags.tags, flags.excludeTags) = (keepGoing, list, filter, filterOut, tags, excludeTags)
        (flags.deferPrint, flags.suppressPending, flags.autoInsulate, flags.lua) = (deferPrint, suppressPending, autoInsulate, lua)
        (flags.coverage, flags.coverageConfigFile, flags.updateSnapshots, flags.junit) = (coverage, coverageConfigFile, updateSnapshots, junit)
        (flags.budget, flags.cpuLimit, flags.memoryLimit, flags.stateDir, flags.pluginPath) = (budget, cpuLimit, memoryLimit, stateDir, pluginPath)
        if let storeURL {
            let tls = redisTLS.settings
            // Read when the run opens the store, after the files are found, as before the split.
            flags.store = { try StoreOptions.redisURL(storeURL, tls: tls, prefix: "cdscript test") }
        }
        try exitingAsCommand { try TestRun.run(flags) }
    }
}
