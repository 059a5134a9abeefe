import CommandEnding
import CountdownCore
import FoundationEssentials

/// The interpreter `cdscript test` gives specs as `arg[-1]`, as busted gives its
/// own (tl's specs run `arg[-1] -e ... FILE ARGS` with it): the `cdscript-lua`
/// executable beside this binary, which runs a Lua file as `lua5.4` does.
enum PlainLuaInterpreter {
    /// The executable's name: Package.swift's product and scripts/install name it
    /// too (InstallTests fail when the copies disagree).
    static let commandName = "cdscript-lua"

    /// `cdscript-lua` in this binary's folder (`swift build`, scripts/install and
    /// scripts/build-release put it there). When it is missing (only
    /// `--product cdscript` was built), says so on stderr and gives this binary's
    /// own path: cdscript runs a plain Lua file too, but an error exits 2 where
    /// lua5.4 exits 1.
    static func forRun(binary: String = InterpreterArguments.executablePath) -> String {
        let beside = PathText.folder(of: binary) + "/" + commandName
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        printError("cdscript test: no \(commandName) beside \(binary) (build it with `swift build --product \(commandName)` "
            + "or install with scripts/install); arg[-1] is cdscript itself, where a Lua error exits 2, not 1 as in lua5.4")
        return binary
    }
}
