import Testing

@Suite("The script environment: require(\"cdscript\"), arg and ...")
struct ModuleTests {
    @Test("require(\"cdscript\") is the global countdown table")
    func requireCdscript() {
        let bed = LuaTestbed()
        #expect(bed.eval("require('cdscript') == countdown") == "true")
        #expect(bed.eval("package.loaded.cdscript == countdown") == "true")
    }

    @Test("the countdown table has start, get, list, cancel_all and format")
    func libraryFunctions() {
        let bed = LuaTestbed()
        for name in ["start", "get", "list", "cancel_all", "format"] {
            #expect(bed.eval("type(countdown.\(name))") == "function", "\(name)")
        }
    }

    @Test("arg[0] is the script, arg[1...] its arguments")
    func argTable() {
        let bed = LuaTestbed()
        bed.mustRun("print(arg[0], arg[1], arg[2], #arg)", arguments: ["script.lua", "one", "two"])
        #expect(bed.lines == ["script.lua one two 2"])
    }

    @Test("the main chunk's ... are the script arguments")
    func varargs() {
        let bed = LuaTestbed()
        bed.mustRun("print(select('#', ...), ...)", arguments: ["script.lua", "one", "two"])
        #expect(bed.lines == ["2 one two"])
    }

    @Test("no arguments: arg[0] only, and an empty ...")
    func noArguments() {
        let bed = LuaTestbed()
        bed.mustRun("print(arg[0], #arg, select('#', ...))", arguments: ["script.lua"])
        #expect(bed.lines == ["script.lua 0 0"])
    }

    @Test("arguments are passed as strings, byte for byte")
    func argumentBytes() {
        let bed = LuaTestbed()
        bed.mustRun("print(type(arg[1]), #arg[1], arg[1] == 'héllo wörld', arg[2] == '')",
                    arguments: ["s.lua", "héllo wörld", ""])
        #expect(bed.lines == ["string 13 true true"])
    }

    @Test("hundreds of arguments all arrive, in arg and in ...")
    func manyArguments() {
        let bed = LuaTestbed()
        let arguments = ["many.lua"] + (1...500).map(String.init)
        bed.mustRun("""
            local n = select('#', ...)
            print(n, #arg, arg[500], (select(500, ...)), (select(1, ...)))
            """, arguments: arguments)
        #expect(bed.lines == ["500 500 500 500 1"])
        #expect(bed.top == 0)
    }

    @Test("more arguments than a Lua stack can hold are a failure, not a crash")
    func tooManyArguments() throws {
        let bed = LuaTestbed()
        let arguments = Array(repeating: "x", count: 1_000_001)
        let failure = try #require(bed.run("print('ran')", arguments: arguments))
        #expect(failure.kind == .runtime)
        #expect(failure.message.contains("too many script arguments"))
        #expect(bed.lines.isEmpty)
        #expect(bed.top == 0)
    }

    @Test("standard libraries are open")
    func standardLibraries() {
        let bed = LuaTestbed()
        for name in ["string", "table", "math", "os", "io", "coroutine", "utf8", "debug", "package"] {
            #expect(bed.eval("type(\(name))") == "table", "\(name)")
        }
    }
}
