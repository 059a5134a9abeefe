import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
import TerminalView
#if canImport(Glibc)
import Glibc
#endif

/// The host's part for plugins and global hooks: where plugins are found, the
/// hooks and formatters scripts register for every countdown (`countdown.on`,
/// `countdown.formatter`), and what plugins do to the world (commands, files,
/// notices), recorded instead of done under `cdscript test`.
///
/// Owned by its `LuaHost`, which it points back to without a strong reference,
/// through a checked `unowned` one: a use after the host is gone traps
/// instead of reading freed memory (no benchmark showed a cost; see
/// docs/performance.md, "Back-pointers").
public final class PluginBinding {
    /// The host this part belongs to, set once by the host as it is made (a
    /// part is made before its host is whole, so that the host can hold it in a
    /// `let`).
    unowned var host: LuaHost!
    /// The Lua state, the host's, kept here so that its calls
    /// read them without going through the host.
    let vm: LuaVM
    /// Folders searched by `use`/`require` for plugins, in order (see `PluginPath`).
    public var path: [PluginDirectory] = [] {
        didSet { updateSearchFolders() }
    }
    /// The folder of the script being run; under `--sandbox`, scripts read files
    /// only in it and the plugin folders, and write (the `log` plugin) only in it.
    public internal(set) var scriptDirectory: String? {
        didSet { updateSearchFolders() }
    }
    /// Global hooks registered per event; dispatch costs one branch while they are 0.
    var startHookCount = 0, tickHookCount = 0, doneHookCount = 0, cancelHookCount = 0
    /// Registry references to the prelude's hook lists (one per event) and formatters.
    var globalHooksRef: Int32 = LUA_NOREF
    var formattersRef: Int32 = LUA_NOREF
    /// Set by `cdscript test`: plugins' side effects are recorded here instead of done (PluginRecorder.swift).
    public var recorder: PluginRecorder?
    /// Where `print` writes when `captureOutput` replaced it (PrintCapture.swift).
    var printSink: ((String) -> Void)?
    /// Lines for the user from plugins (e.g. why no notification was shown); stderr by default.
    public var reportNotice: (String) -> Void = { message in
        StandardError.line(message)
    }
    /// The errno of the first command a plugin could not start (`exec`'s program
    /// missing, say), or nil: the run then ends with the shell's code for it.
    public internal(set) var spawnFailure: Int32?

    init(vm: LuaVM) {
        self.vm = vm
    }


    /// Tells require's searcher and the sandbox (cd_stdlib_set_folders, Sources/CLuaShim/stdlib_install.c) the current folders.
    func updateSearchFolders() {
        // NULL-terminated, so that the buffer is never empty.
        var pointers: [UnsafeMutablePointer<CChar>?] = path.map { strdup($0.path) } + [nil]
        let script = scriptDirectory.map { strdup($0) } ?? nil
        defer {
            for p in pointers { free(p) }
            free(script)
        }
        let status = pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                cd_stdlib_set_folders(vm.state.raw, script, $0, Int32(buffer.count - 1))
            }
        }
        SetUpStep.check(status == LUA_OK, "cdscript: the plugin folders could not be recorded")
    }
}
