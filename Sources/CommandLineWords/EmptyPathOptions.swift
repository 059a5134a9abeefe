/// busted takes `--lpath=` and `--cpath=` with an empty value (lua_cliargs's CI
/// runs `busted -v --lpath= --cpath= -Xoutput --color`): no module path is put
/// first, not even the default ./src one. ArgumentParser refuses an empty
/// value written with `=`, so `test`'s arguments give it as a word of its own.
public enum EmptyPathOptions {
    static let names: Set = ["--lpath=", "-m=", "--cpath="]

    public static func split(_ arguments: [String]) -> [String] {
        // Only for `cdscript test ...`: a script's own arguments are left as they are.
        guard let test = arguments.firstIndex(where: { !$0.hasPrefix("-") }), arguments[test] == "test" else { return arguments }
        var out = Array(arguments[...test])
        for argument in arguments[(test + 1)...] {
            if names.contains(argument) {
                out += [String(argument.dropLast()), ""]
            } else {
                out.append(argument)
            }
        }
        return out
    }
}
