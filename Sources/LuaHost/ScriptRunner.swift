import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

extension LuaHost {
    /// Loads and runs a script file's main chunk. Script arguments reach Lua as the
    /// global `arg` (`arg[0]` is the path) and as the chunk's `...`.
    /// Returns nil when the chunk ran to its end. With `settingArg` false the global
    /// `arg` is left as it is (a test file sees busted's, set by the test runner).
    /// `prepareChunk`, when given, is called with the loaded chunk on top of the
    /// stack before it runs (the test runner gives it its environment there).
    /// `path` may be a pipe or a FIFO (`<(...)`, `/dev/stdin`), or `-` for
    /// standard input (its chunk is named `stdin`, as `lua5.4 -` names it);
    /// with `regularFileOnly` (a reload after a save) anything but a regular
    /// file is refused by what it is, never waited on.
    public func runScript(atPath path: String, arguments: [String] = [], settingArg: Bool = true,
                          regularFileOnly: Bool = false,
                          prepareChunk: ((LuaState) -> Void)? = nil) -> ScriptFailure? {
        let source: Data
        switch ScriptSource.read(path, regularFileOnly: regularFileOnly) {
        case .success(let data): source = data
        case .failure(let failure):
            return ScriptFailure(kind: .unreadable, message: "cannot read script \(path): \(failure)")
        }
        // As text, not through `URL` (0.44 million instructions a run: its path
        // parsing builds generic sets at first use).
        let current = path.hasPrefix("/") ? "/" : FileManager.default.currentDirectoryPath
        plugins.scriptDirectory = path == "-" ? PathText.absolute(current, in: "/")
            : PathText.folder(of: PathText.absolute(path, in: current))
        let chunkName = path == "-" ? ScriptSource.standardInputChunkName : "@" + path
        return runScript(source: Self.executableScriptText(source), chunkName: chunkName, arguments: [path] + arguments, settingArg: settingArg, prepareChunk: prepareChunk)
    }

    /// The text of a script file as `lua.c` reads it: a UTF-8 byte order mark is
    /// dropped, and a first line starting with `#` (`#!/usr/bin/env cdscript`) is
    /// emptied but kept as a line, so error line numbers still match the file;
    /// before a precompiled chunk (ESC) the line goes whole, as lua.c drops it.
    public static func executableScriptText(_ source: Data) -> Data {
        var bytes = source[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.first == UInt8(ascii: "#") {
            bytes = bytes[(bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex)...]
            if bytes.dropFirst().first == 0x1B { bytes = bytes.dropFirst() }
        }
        return Data(bytes)
    }

    /// Runs source text as a script. `arguments[0]` becomes `arg[0]`.
    public func runScript(source: Data, chunkName: String, arguments: [String] = [], settingArg: Bool = true,
                          prepareChunk: ((LuaState) -> Void)? = nil) -> ScriptFailure? {
        owner.assertCurrent("the Lua state")
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        let status = source.withUnsafeBytes { raw in
            // Precompiled chunks run as lua5.4 runs them, except under --sandbox.
            cd_load_script(L.raw, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count, chunkName, vm.limits.sandbox ? 0 : 1)
        }
        if status != LUA_OK {
            let message = L.string(at: -1) ?? "unknown load error"
            return ScriptFailure(kind: status == LUA_ERRSYNTAX ? .syntax : .runtime, message: message)
        }
        if let prepareChunk {
            let top = L.top
            prepareChunk(L)
            L.setTop(top)
        }
        // Room for the arguments as `...`, the traceback handler and setGlobal's temporaries:
        // the C API guarantees only LUA_MINSTACK (20) free slots.
        guard arguments.count < Int(Int32.max) - 3, lua_checkstack(L.raw, Int32(arguments.count) + 3) != 0 else {
            return ScriptFailure(kind: .runtime, message: "too many script arguments (\(arguments.count))")
        }
        if settingArg {
            lua_createtable(L.raw, Int32(arguments.count), 1)
            for (i, argument) in arguments.enumerated() {
                L.push(argument)
                L.setRawItem(-2, i)
            }
            setGlobal("arg")
        }
        for argument in arguments.dropFirst() { L.push(argument) }
        let callStatus = cd_pcall_traceback(L.raw, Int32(max(0, arguments.count - 1)), 0)
        if callStatus == LUA_ERRMEM {
            return ScriptFailure(kind: .runtime, message: String(cString: cd_memory_error_message(L.raw)))
        }
        if callStatus != LUA_OK {
            return ScriptFailure(kind: .runtime, message: L.string(at: -1) ?? "error object is not a string")
        }
        return nil
    }

    /// Sets the global `arg` as `lua5.4` makes it: the script at 0, its arguments
    /// from 1, and what came before the script on the command line (the
    /// interpreter and its options) at -1, -2, ... counting back from the script.
    public func setArgTable(script: String, arguments: [String], interpreter: [String]) {
        let L = vm.state
        lua_createtable(L.raw, Int32(clamping: arguments.count), Int32(clamping: interpreter.count + 1))
        for (i, item) in ([script] + arguments).enumerated() {
            L.push(item)
            L.setRawItem(-2, i)
        }
        for (i, item) in interpreter.reversed().enumerated() {
            L.push(item)
            L.setRawItem(-2, -(i + 1))
        }
        setGlobal("arg")
    }
}
