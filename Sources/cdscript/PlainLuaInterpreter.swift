import CLuaShim
import Foundation

/// `cdscript-lua`: this binary under another name is the plain Lua interpreter
/// (`lua5.4`'s options, `arg`, messages and exit codes; CLuaStandalone.h), the
/// one word `cdscript test` gives specs as `arg[-1]`.
///
/// The name is read before anything else runs: that path pays for the process and
/// one bare Lua state, not for the argument parser, the host or its libraries.
enum PlainLuaInterpreter {
    /// The name (a symbolic or hard link to cdscript) that makes it the interpreter.
    static let commandName = "cdscript-lua"

    /// Runs the command line as `lua5.4` would and exits, when the program was
    /// invoked as `cdscript-lua`; returns otherwise.
    static func runIfInvokedByName() {
        guard let first = CommandLine.unsafeArgv[0] else { return }
        let base = strrchr(first, Int32(UInt8(ascii: "/"))).map { $0 + 1 } ?? first
        guard strcmp(base, commandName) == 0 else { return }
        exit(cd_lua_standalone_main(CommandLine.argc, CommandLine.unsafeArgv))
    }
}
