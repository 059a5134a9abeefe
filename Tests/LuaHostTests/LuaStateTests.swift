import CLua
import LuaHost
import Testing

/// `LuaState` is the one way Swift code touches a Lua stack: each function does
/// one thing to the stack, and none runs a metamethod.
@Suite("LuaState: what each stack operation does to the stack")
struct LuaStateTests {
    /// Runs `body` on a fresh state, given its stack top before the test's
    /// values; the VM lives until `body` returns (a `LuaState` does not keep it).
    private func withState(_ body: (LuaVM, LuaState, Int32) -> Void) {
        let vm = LuaVM()
        withExtendedLifetime(vm) { body(vm, vm.state, vm.state.top) }
    }

    /// Runs `source` and leaves its one result on the stack.
    private func evaluate(_ L: LuaState, _ source: String) {
        #expect(L.load(source, chunkName: "=spec") == LUA_OK)
        #expect(L.call(arguments: 0, results: 1) == LUA_OK)
    }

    @Test("push, pop and top count values; insert and remove move them")
    func pushAndPop() {
        withState { vm, L, base in
            L.push("a")
            L.push(2)
            L.push(true)
            L.pushNil()
            #expect(L.top == base + 4)
            #expect(L.string(at: -4) == "a" && L.number(at: -3) == 2 && L.boolean(at: -2) && L.type(at: -1) == LUA_TNIL)
            L.pop(2)
            L.push("b")
            L.insert(at: -3)  // b, a, 2
            #expect(L.string(at: -3) == "b" && L.string(at: -2) == "a")
            L.remove(at: -2)  // b, 2
            #expect(L.top == base + 2 && L.string(at: -2) == "b" && L.number(at: -1) == 2)
            L.setTop(base)
            #expect(vm.top == 0)
        }
    }

    @Test("string(at:) keeps NUL bytes and never converts a number; number(at:) never converts a string")
    func noConversions() {
        withState { _, L, base in
            L.push("a\u{0}b")
            L.push(42)
            L.push("42")
            #expect(L.string(at: -3) == "a\u{0}b")
            #expect(L.string(at: -2) == nil)
            #expect(L.type(at: -2) == LUA_TNUMBER, "reading did not turn the number into a string")
            #expect(L.number(at: -1) == nil)
            #expect(L.typeName(at: -1) == "string")
            L.setTop(base)
        }
    }

    @Test("table reads and writes skip __index, __newindex and __len")
    func rawTables() {
        withState { _, L, base in
            evaluate(L, """
                return setmetatable({ present = "here", 10, 20 }, {
                  __index = function() error("__index ran") end,
                  __newindex = function() error("__newindex ran") end,
                  __len = function() error("__len ran") end,
                })
                """)
            #expect(L.textField(-1, "present") == "here")
            #expect(L.rawField(-1, "absent") == LUA_TNIL)
            L.pop()
            L.push("new")
            L.setRawField(-2, "added")
            #expect(L.textField(-1, "added") == "new")
            #expect(L.rawLength(at: -1) == 2)
            #expect(L.rawItem(-1, 2) == LUA_TNUMBER && L.number(at: -1) == 20)
            L.pop()
            L.push(30)
            L.setRawItem(-2, 3)
            #expect(L.integerField(-1, "added") == nil)
            #expect(L.rawLength(at: -1) == 3)
            #expect(L.top == base + 1)
            L.setTop(base)
        }
    }

    @Test("pushList makes a sequence; pushTable an empty table")
    func tables() {
        withState { _, L, base in
            L.pushList(["x", "y"])
            #expect(L.rawLength(at: -1) == 2)
            L.rawItem(-1, 1)
            #expect(L.string(at: -1) == "x")
            L.pop()
            L.pushTable(array: 4, fields: 4)
            #expect(L.type(at: -1) == LUA_TTABLE && L.rawLength(at: -1) == 0)
            L.setTop(base)
        }
    }

    @Test("a reference pops the value and pushRef gives the same value back")
    func references() {
        withState { _, L, base in
            L.pushList(["kept"])
            let ref = L.ref()
            #expect(L.top == base)
            L.pushRef(ref)
            #expect(L.type(at: -1) == LUA_TTABLE && L.rawLength(at: -1) == 1)
            L.setTop(base)
        }
    }

    @Test("isCallable: functions and values whose metatable has __call, nothing else")
    func callable() {
        withState { _, L, base in
            evaluate(L, "return function() end")
            evaluate(L, "return setmetatable({}, { __call = function() end })")
            evaluate(L, "return setmetatable({}, { __index = function() end })")
            L.push("print")
            #expect(L.isCallable(at: -4))
            #expect(L.isCallable(at: -3))
            #expect(!L.isCallable(at: -2))
            #expect(!L.isCallable(at: -1))
            #expect(L.top == base + 4, "asking leaves nothing behind")
            L.setTop(base)
        }
    }

    @Test("load leaves the function or the message; call leaves the results or the message with a traceback")
    func loadAndCall() {
        withState { _, L, base in
            #expect(L.load("return = 1", chunkName: "=broken") != LUA_OK)
            #expect(L.string(at: -1)?.hasPrefix("broken:1:") == true)
            L.pop()
            #expect(L.load("local a, b = ... return a + b, a * b", chunkName: "=sum") == LUA_OK)
            L.push(3)
            L.push(4)
            #expect(L.call(arguments: 2, results: 2) == LUA_OK)
            #expect(L.number(at: -2) == 7 && L.number(at: -1) == 12)
            L.pop(2)
            #expect(L.load("error('boom')", chunkName: "=fails") == LUA_OK)
            #expect(L.call(arguments: 0, results: 0) == LUA_ERRRUN)
            let message = L.string(at: -1) ?? ""
            #expect(message.hasPrefix("fails:1: boom") && message.contains("stack traceback:"))
            L.setTop(base)
        }
    }

    @Test("a callback gets the instruction budget; a budget of 0 lets the runner's own code run unbounded")
    func budget() {
        let vm = LuaVM(limits: ScriptLimits(instructionBudget: 10_000))
        defer { withExtendedLifetime(vm) {} }
        let L = vm.state
        #expect(L.instructionBudget == 10_000)
        evaluate(L, "return function() while true do end end")
        evaluate(L, "return debug.traceback")
        L.insert(at: -2)  // the handler below the function
        let handler = L.top - 1
        #expect(L.callAsCallback(arguments: 0, results: 0, handler: handler) == LUA_ERRRUN)
        #expect(L.string(at: -1)?.contains("instruction") == true, "\(L.string(at: -1) ?? "")")
        L.setTop(handler - 1)
        L.instructionBudget = 0
        #expect(L.instructionBudget == 0)
        evaluate(L, "local n = 0 for i = 1, 100000 do n = n + i end return n")
        #expect(L.number(at: -1) == 5_000_050_000)
        L.instructionBudget = 10_000
        #expect(L.instructionBudget == 10_000)
        L.pop()
    }
}
