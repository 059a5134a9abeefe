/// The Lua half of `cdscript test`: the globals a test file sees (busted's
/// `describe`/`context`/`insulate`/`expose`, `it`/`spec`/`test`, `pending`, the
/// hooks and `finally`; luassert's `assert`, `spy`, `stub`, `mock`, `match`; and
/// cdscript's `expect`, `load_script`, `printed`, `plugin_calls`), hermetic
/// `os.time`/`os.date`/`os.clock`, and the code that runs the blocks and tests.
///
/// It runs before the test file, with the file's path and the helper table `H`
/// (FileSession.swift) as `...`, and returns the table the Swift runner drives:
/// `run(options)`, which returns every result in the order the tests ran. The
/// `clock` table is bound by the host (`LuaHost.installVirtualClockLibrary`).
///
/// Messages never show addresses (`table: 0x...`), so that the same files always
/// give the same report.
enum TestPrelude {
    /// The chunk name; frames from it are left out of tracebacks.
    static let chunkName = "=(cdscript test)"
    static let sourceMarker = "(cdscript test)"

    /// The whole chunk: its parts share locals, so they are one chunk, kept in
    /// files by subject (Lua/test_*.lua, Lua/prelude_busted.lua and Lua/shuffle.lua, compiled
    /// into the binary) and joined in this order. The chunk keeps the name
    /// `(cdscript test)`: tracebacks and `debug.getinfo` callers drop its frames
    /// by that name, and no single file's line numbers would fit the joined chunk.
    static let source = [
        PackageResources.shuffle_lua,         // busted's shuffle (shared with --shuffle-files)
        PackageResources.test_basics_lua,     // arguments, module paths, luassert, showing values and failures
        PackageResources.test_expect_lua,     // expect(...) and its matchers
        PackageResources.test_structure_lua,  // spies, blocks, hooks, environments, scripts, captured output
        PackageResources.test_time_lua,       // hermetic os.time/os.date/os.clock
        PackageResources.test_plugins_lua,    // plugin_calls
        PackageResources.test_processes_lua,  // process: other processes, kill, restart, reboot
        PackageResources.prelude_busted_lua,  // busted's module, events, arg, --helper, -e
        PackageResources.test_running_lua,    // running the blocks and tests
    ].map { String(decoding: $0, as: UTF8.self) }.joined()
}
