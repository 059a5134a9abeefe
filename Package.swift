// swift-tools-version:6.1
import PackageDescription

// Layers, bottom to top; every dependency points down:
//   CLua (system library) -> CLuaShim (C helpers) ->
//   CountdownCore (pure Swift: clocks, countdowns, scheduler, formatting) ->
//   LuaHost, EventLoop (adapters) -> CommandEnding (how a command exits) ->
//   StoreViews (stored countdowns from outside), ScriptRunning (a script's run, `cdscript test`) ->
//   CommandLineWords (the option groups and the word readers) -> cdscript (command types only: parse, call, exit)
// TerminalView (elements, layout, diffing renderer; TerminalSession is its only
// I/O) sits beside CountdownCore; LuaHost binds it as the `view` library.

// The tick path runs millions of times a second; in release builds it skips the
// dynamic exclusivity checks (debug builds and tests keep them).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

// The release executables are linked static (-static: glibc's archives too, so no
// dynamic loader runs at all; at a fixed address, nothing to relocate at start) with
// the C libraries' static archives (scripts/link-release: lld, finding Debian's .a
// files before the shared objects): `cdscript status` about 3 ms of CPU instead of
// 5.4 (docs/performance.md, "Linked as one file"), and without the loader's symbol
// lookups `--version` halves again ("Linked static"). Debug builds and tests link as
// SwiftPM does by default.
let releaseLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=\(Context.packageDirectory)/scripts/link-release", "-Xclang-linker", "-static"],
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "cdscript",
    platforms: [.macOS(.v13)],
    products: [
        // The command line (its code is the `cdscript` library; `cdscript-main` only calls it).
        // It links no web server: `serve` hands over to cdscript-serve (exec), and `run --serve`
        // starts one for the page; SwiftNIO and BoringSSL cost every command 3 ms of CPU at start.
        .executable(name: "cdscript", targets: ["cdscript-main"]),
        // The same command line with the web server linked in (CountdownWeb, SwiftNIO, NIOSSL),
        // installed beside cdscript: `cdscript serve` execs it, `run --serve` starts it for its page.
        .executable(name: "cdscript-serve", targets: ["cdscript-serve"]),
        // The plain Lua interpreter (lua5.4's command line) installed beside cdscript: what
        // `cdscript test` gives specs as arg[-1]. C and Lua only, so it starts as fast as lua5.4.
        .executable(name: "cdscript-lua", targets: ["cdscript-lua"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // HTTPS for `cdscript serve --tls-cert/--tls-key` (BoringSSL inside, symbols prefixed: no clash with libssl).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // Text width by grapheme cluster (Debian: libutf8proc-dev), for the view.
        .systemLibrary(
            name: "CUtf8proc",
            pkgConfig: "libutf8proc",
            providers: [.apt(["libutf8proc-dev"])]
        ),
        // Redis's own C client (Debian: libhiredis-dev), for the shared store.
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        // SQLite's C library (Debian: libsqlite3-dev), for the SQLite store and the Redis journal.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // OpenSSL (Debian: libssl-dev), for Redis over TLS.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // The TLS byte stream under hiredis's reply reader for rediss:// (hiredis 0.14 has no TLS).
        .target(name: "CRedisTLS", dependencies: ["COpenSSL"]),
        .target(
            name: "CLuaShim",
            dependencies: ["CLua"]
        ),
        .target(name: "CountdownCore", swiftSettings: hotPath),
        .target(name: "CTerminal"),
        .target(name: "TerminalView", dependencies: ["CTerminal", "CUtf8proc"]),
        // The build's Lua compiler: the host's own Lua (LuaHost/Lua/*.lua) compiled at
        // build time with the Lua library the binary links, so that no run compiles it.
        .executableTarget(name: "LuaBytecode", dependencies: ["CLua"]),
        .plugin(name: "LuaBytecodePlugin", capability: .buildTool(), dependencies: ["LuaBytecode"]),
        // The host's own Lua (Lua/, as bytecode) and the built-in plugins (BuiltinPlugins/), compiled into the binary.
        .target(name: "LuaHost", dependencies: ["CLua", "CLuaShim", "CountdownCore", "TerminalView", "CTerminal"],
                exclude: ["Lua"],
                resources: [
                    .embedInCode("BuiltinPlugins/plugin_common.lua"),
                    .embedInCode("BuiltinPlugins/bell.lua"),
                    .embedInCode("BuiltinPlugins/notify.lua"),
                    .embedInCode("BuiltinPlugins/exec.lua"),
                    .embedInCode("BuiltinPlugins/log.lua"),
                    .embedInCode("BuiltinPlugins/formats.lua"),
                    .embedInCode("BuiltinPlugins/outfile.lua"),
                    .embedInCode("BuiltinPlugins/timer_keys.lua"),
                    .embedInCode("BuiltinPlugins/sequence.lua"),
                    .embedInCode("Persistence/end_actions.lua"),
                ], swiftSettings: hotPath, plugins: ["LuaBytecodePlugin"]),
        .target(name: "CLinux"),
        .target(name: "EventLoop", dependencies: ["CLinux", "CountdownCore"]),
        // This boot's id and processes named so that others can tell they still run, read from /proc
        // (kept out of the pure core); both stores name their writers with it.
        .target(name: "SystemIdentity"),
        // A small layer over SQLite's C API: connections, statements, transactions, migrations.
        // (It replaced GRDB, whose Foundation imports linked ICU's 34 MB into every binary.)
        .target(name: "SQLiteAccess", dependencies: ["CSQLite"]),
        // Adapter: countdowns kept across processes in SQLite; only the executable and tests import it.
        .target(name: "SQLiteStore", dependencies: ["CountdownCore", "CLinux", "SystemIdentity", "CSQLite", "SQLiteAccess"]),
        // Adapter: countdowns shared across machines in Redis (hiredis, over TLS for rediss://), with a change feed.
        .target(name: "RedisStore", dependencies: ["CountdownCore", "CHiredis", "CRedisTLS", "CLinux", "SystemIdentity", "CSQLite", "SQLiteAccess"],
                resources: [
                    .embedInCode("Lua/end_claim_keys.lua"),
                    .embedInCode("Lua/end_claim.lua"),
                    .embedInCode("Lua/end_renew.lua"),
                    .embedInCode("Lua/end_finish.lua"),
                ]),
        // `cdscript serve`'s end-action runner: follows a store and runs the end
        // actions stored countdowns name, once per end (no ArgumentParser: the
        // cdscript executable and a separate server executable both start it).
        .target(name: "StoredEndActions", dependencies: ["CountdownCore", "CLinux", "EventLoop", "SQLiteStore", "RedisStore", "SystemIdentity"]),
        // A script's view as the page draws it (`run --serve`): a value taken after each pass of
        // the run loop, its JSON, and the frames sent on a visible change. No I/O and no NIO:
        // both sides of the page (cdscript, which runs the script, and cdscript-serve) use it.
        .target(name: "ScriptViewModel", dependencies: ["CountdownCore", "TerminalView"]),
        // Adapter: stored countdowns over HTTP (`cdscript serve`): the API, the event stream and
        // the pages (Pages/), on SwiftNIO; one event-loop thread owns the store it serves. Also a
        // script's view (`run --serve`, ScriptView/): TerminalView's model as JSON, clicks as keys.
        .target(name: "CountdownWeb", dependencies: [
                    "CountdownCore", "TerminalView", "ScriptViewModel", "COpenSSL",
                    .product(name: "NIOCore", package: "swift-nio"),
                    .product(name: "NIOPosix", package: "swift-nio"),
                    .product(name: "NIOHTTP1", package: "swift-nio"),
                    .product(name: "NIOSSL", package: "swift-nio-ssl"),
                ],
                resources: [
                    .embedInCode("Pages/index.html"),
                    .embedInCode("Pages/countdown.html"),
                    .embedInCode("Pages/overlay.html"),
                    .embedInCode("Pages/style.css"),
                    .embedInCode("Pages/overlay.css"),
                    .embedInCode("Pages/format.js"),
                    .embedInCode("Pages/live.js"),
                    .embedInCode("Pages/index.js"),
                    .embedInCode("Pages/countdown.js"),
                    .embedInCode("Pages/view.html"),
                    .embedInCode("Pages/view.js"),
                    .embedInCode("Pages/view.css"),
                ]),
        .target(
            name: "ScriptTesting",
            dependencies: ["CLua", "CLuaShim", "CountdownCore", "LuaHost", "TerminalView"],
            // The Lua parts of `cdscript test`, compiled into the binary.
            resources: [
                .embedInCode("Lua/test_basics.lua"),
                .embedInCode("Lua/test_expect.lua"),
                .embedInCode("Lua/test_structure.lua"),
                .embedInCode("Lua/test_time.lua"),
                .embedInCode("Lua/test_plugins.lua"),
                .embedInCode("Lua/test_processes.lua"),
                .embedInCode("Lua/process_boot.lua"),
                .embedInCode("Lua/test_running.lua"),
                .embedInCode("Lua/prelude_busted.lua"),
                .embedInCode("Lua/busted_config.lua"),
                .embedInCode("Lua/shuffle.lua"),
                .embedInCode("Lua/shuffle_files.lua"),
                .embedInCode("Lua/busted_mediator.lua"),
                .embedInCode("Lua/output_handler.lua"),
                .embedInCode("Lua/executable_lines.lua"),
                .embedInCode("Lua/luacov_config.lua"),
                .embedInCode("Lua/line_lexer.lua"),
                .embedInCode("Lua/line_scanner.lua"),
                .embedInCode("Lua/luacov_names.lua"),
                .embedInCode("Lua/luassert_probe.lua"),
                .embedInCode("Lua/pattern_filter.lua"),
            ]
        ),
        // How every command ends, below the command libraries and the command line: the exit
        // statuses (ExitStatus), output that could not be written (OutputContract), the loop a
        // command runs or exits 5. A library throws `CommandExit`; the command line, which alone
        // links ArgumentParser, turns it into the parser's exit. No Lua: stores, bars and scripts alike.
        .target(name: "CommandEnding", dependencies: ["EventLoop", "TerminalView"]),
        // A script's run (`run`, `timer`, `stopwatch`): its loop, view, reload on save (--watch),
        // store, page (--serve), exit (RunExit) and coverage; and `cdscript test`'s settings, reports and
        // store. Named for what it does with a script, as ScriptTesting is. Plain values in
        // (RunSettings, TestFlags), no ArgumentParser: the command line parses, this runs, and a
        // run started without the parser calls the same code.
        .target(
            name: "ScriptRunning",
            dependencies: [
                "CommandEnding", "CountdownCore", "LuaHost", "EventLoop", "SQLiteStore", "RedisStore", "SystemIdentity",
                "ScriptTesting", "TerminalView", "ScriptViewModel",
            ]
        ),
        // What stored countdowns look like from outside, and what the commands that work on a store
        // do once their words are read: the store a command opens (StoreLocation, SharedStore), `list`,
        // `status`, `watch` (StoreWatcher, WatchIndex) and its bars (Bars/), `start`'s and the change
        // commands' single changes, `cancel`, `clear`, `check`, serve's end-action runner as the
        // command starts it, and the completions that read the store. No ArgumentParser: the
        // commands read their words and call this, which does the work, tested in process. Also the
        // seam to serve's web side (ServeWeb) and the journal set aside that makes a command exit 6.
        .target(name: "StoreViews", dependencies: ["CountdownCore", "SQLiteStore", "RedisStore", "SystemIdentity", "EventLoop", "TerminalView", "StoredEndActions", "CommandEnding"]),
        // The command line's vocabulary: the option groups several commands share (StoreOptions,
        // HardeningOptions, ViewOptions, ...: ArgumentParser's ParsableArguments, public, turned into
        // the libraries' plain settings) and the word readers that skip ArgumentParser at start-up
        // (`--version`, a plain script call, `status`: PlainRun, StatusRequest+PlainWords), or read
        // around it (LeadingOptions, CommandHints, CommandOptionTable), and ArgumentParser's side of
        // a library's ending (exitingAsCommand). A library of its own rather than part of `cdscript`:
        // what is not a command type is tested in process here (CommandLineWordsTests), and the
        // executable's library keeps the command types only. Not in StoreViews or ScriptRunning,
        // which stay free of ArgumentParser. Public only what the command line uses (the tests read
        // the rest through @testable): every public symbol is exported by the executable, and one
        // dladdr at start-up scans them all (about 31 instructions each, on every command).
        .target(
            name: "CommandLineWords",
            dependencies: [
                "CountdownCore", "LuaHost", "EventLoop", "SQLiteStore", "RedisStore", "TerminalView",
                "CommandEnding", "ScriptRunning", "StoreViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The command line's code: one type per command, its options, help and checks, and a run()
        // that calls the libraries above (StoreViews, ScriptRunning, CommandEnding, CommandLineWords)
        // and exits (a library, so that both executables below run it; the tests in cdscriptTests
        // hold the word readers to ArgumentParser's reading of these commands).
        .target(
            name: "cdscript",
            dependencies: [
                "CountdownCore", "LuaHost", "EventLoop", "SQLiteStore", "RedisStore", "SystemIdentity", "ScriptTesting", "TerminalView",
                "StoredEndActions", "ScriptViewModel", "CommandEnding", "ScriptRunning", "StoreViews", "CommandLineWords",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Built-in Lua scripts (`cdscript timer`, `cdscript new`), compiled into the binary.
            resources: [
                .embedInCode("BuiltinScripts/timer.lua"),
                .embedInCode("BuiltinScripts/stopwatch.lua"),
                .embedInCode("BuiltinScripts/new_script.lua"),
                .embedInCode("BuiltinScripts/new_spec.lua"),
            ]
        ),
        // The `cdscript` executable: the command line, without the web server.
        .executableTarget(name: "cdscript-main", dependencies: ["cdscript"], linkerSettings: releaseLinking),
        // `cdscript serve` and the page of `run --serve`: the command line with CountdownWeb linked in.
        .executableTarget(
            name: "cdscript-serve",
            dependencies: [
                "cdscript", "CommandLineWords", "CountdownWeb", "ScriptViewModel", "CountdownCore", "SQLiteStore", "SystemIdentity", "TerminalView", "StoreViews", "CommandEnding",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: releaseLinking
        ),
        // A C program: without Swift's start-up object (-nostartfiles) and linked to what it calls
        // into only (Sources/cdscript-lua/link_only_what_is_used.c): Lua and libc.
        .executableTarget(name: "cdscript-lua", dependencies: ["CLua"], linkerSettings: [.unsafeFlags(["-nostartfiles"])]),
        // Benchmarks (scripts/bench): not part of the product.
        .target(name: "CBenchFloor", dependencies: ["CLua"]),
        .executableTarget(
            name: "cdbench",
            dependencies: [
                "CBenchFloor", "CLinux", "CLua", "CLuaShim", "CountdownCore", "LuaHost", "EventLoop", "CountdownWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The benchmarks' Lua, in files of its own (checked by EmbeddedLuaSyntaxTests).
            resources: [
                .embedInCode("Lua/churn.lua"),
                .embedInCode("Lua/dispatch_setup.lua"),
                .embedInCode("Lua/memory.lua"),
            ]
        ),
        .testTarget(name: "CountdownCoreTests", dependencies: ["CountdownCore"]),
        // The HTTP side of serve, in process and in a real headless chromium; a script's view
        // (ScriptView/) with a Lua host on a virtual clock, and the real binary's `run --serve`.
        .testTarget(name: "CountdownWebTests", dependencies: ["CountdownWeb", "ScriptViewModel", "CountdownCore", "TerminalView", "LuaHost", "TestPorts",
                                                            .product(name: "NIOCore", package: "swift-nio"),
                                                            .product(name: "NIOPosix", package: "swift-nio"),
                                                            .product(name: "NIOHTTP1", package: "swift-nio"),
                                                            .product(name: "NIOSSL", package: "swift-nio-ssl")]),
        .testTarget(name: "CLinuxTests", dependencies: ["CLinux"]),
        .testTarget(name: "LuaHostTests", dependencies: ["LuaHost", "CLua", "CLuaShim", "CountdownCore"]),
        .testTarget(name: "EndToEndTests", dependencies: ["RedisTestServer", "TestPorts"]),
        .testTarget(name: "SystemIdentityTests", dependencies: ["SystemIdentity"]),
        .testTarget(name: "StoredEndActionsTests", dependencies: ["StoredEndActions", "CountdownCore"]),
        // The SQLite layer against real databases in temporary folders (GRDB, in tests only, is the
        // independent writer of stores as earlier builds left them).
        .testTarget(name: "SQLiteAccessTests", dependencies: ["SQLiteAccess", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "SQLiteStoreTests", dependencies: ["SQLiteStore", "SQLiteAccess", "CountdownCore", "EventLoop", "SystemIdentity", .product(name: "GRDB", package: "GRDB.swift")]),
        // The Redis store against a real redis-server each suite starts on loopback and stops.
        // A real redis-server of a test's own, for the Redis tests of both suites below.
        // Loopback ports below the kernel's ephemeral range, for servers a test restarts on the same port.
        .target(name: "TestPorts", path: "Tests/Support/TestPorts"),
        .target(name: "RedisTestServer", dependencies: ["TestPorts"], path: "Tests/Support/RedisTestServer"),
        .testTarget(name: "RedisStoreTests", dependencies: ["RedisStore", "CountdownCore", "EventLoop", "RedisTestServer", "LuaHost", .product(name: "GRDB", package: "GRDB.swift")]),
        // What every store promises, checked on each of them: in memory, SQLite and Redis.
        .testTarget(name: "StoreConformanceTests", dependencies: ["CountdownCore", "SQLiteStore", "RedisStore", "EventLoop", "RedisTestServer", .product(name: "GRDB", package: "GRDB.swift")]),
        // Runs the real binary against real stores: kill -9, SIGSTOP, clock jumps, bad files.
        .testTarget(name: "StoreFaultTests", dependencies: [.product(name: "GRDB", package: "GRDB.swift"), "RedisTestServer", "CountdownCore", "TerminalView"]),
        .testTarget(
            name: "ScriptTestingTests",
            dependencies: ["ScriptTesting", "LuaHost", "CountdownCore", "CLua"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "TerminalViewTests", dependencies: ["TerminalView"]),
        .testTarget(name: "ViewTests", dependencies: ["LuaHost", "TerminalView", "CountdownCore", "CLua", "CLuaShim"]),
        // Plugins, global hooks, limits, the sandbox, hostile scripts, the annotation file (issue 6).
        .testTarget(name: "PluginTests", dependencies: ["LuaHost", "CLua", "CLuaShim", "CountdownCore", "ScriptTesting", "TerminalView"]),
        // The command line's own decisions, in process: the option table, the plain words of
        // `status`, `--version` and a script call against ArgumentParser's reading of the commands.
        .testTarget(name: "cdscriptTests", dependencies: ["cdscript", "CommandLineWords", "CommandEnding", "CountdownCore", "TerminalView", "StoreViews", "ScriptRunning", "RedisStore"]),
        // CommandLineWords in process: the option groups' checks, the leading options, the hints,
        // the positional values and durations, listen addresses, busted's empty paths, and how a
        // library's ending becomes the parser's.
        .testTarget(name: "CommandLineWordsTests", dependencies: ["CommandLineWords", "CommandEnding", "StoreViews", "CountdownCore",
                                                               .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // A script's run and `cdscript test`'s settings, in process: every run's ending mapped to its
        // exit status (RunExit), report files, the reloader's files, the interpreter's arguments,
        // .busted merged with flags, output handlers, the timer's checks.
        .testTarget(name: "ScriptRunningTests", dependencies: ["ScriptRunning", "CommandEnding", "CountdownCore", "LuaHost", "ScriptTesting", "TerminalView"]),
        // StoreViews in process, on stores in temporary folders and virtual clocks: the listing,
        // the status line, the watcher and the bars, the changes, the completions.
        .testTarget(name: "StoreViewsTests", dependencies: ["StoreViews", "CommandEnding", "CountdownCore", "SQLiteStore", "EventLoop", "TerminalView", "LuaHost"]),
        // Property-based fuzzing of the format-pattern and `at` parsers.
        .testTarget(name: "ParserFuzzTests", dependencies: ["CountdownCore", .product(name: "PropertyBased", package: "swift-property-based")]),
    ],
    swiftLanguageModes: [.v6]
)
