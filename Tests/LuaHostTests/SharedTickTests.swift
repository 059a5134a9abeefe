import CLua
import CLuaShim
import Testing

/// A hook that provably lets its `t` go gets one reused tick object instead of a
/// new one per tick (tick_escape.c). These specs pin down the proof's verdicts and
/// show that no script can tell the difference.
@Suite("Hooks that cannot keep their t share one tick object")
struct SharedTickTests {
    /// The verdict of `cd_tick_stays_local` for the function that `expression` evaluates to.
    private func staysLocal(_ expression: String) -> Bool {
        let bed = LuaTestbed()
        bed.mustRun("probe = \(expression)")
        return staysLocal(probeIn: bed)
    }

    /// The verdict for the global `probe` of `bed`.
    private func staysLocal(probeIn bed: LuaTestbed) -> Bool {
        let L = bed.L
        let base = lua_gettop(L.raw)
        lua_rawgeti(L.raw, cd_registry_index(), lua_Integer(LUA_RIDX_GLOBALS))
        _ = lua_pushstring(L.raw, "probe")
        lua_rawget(L.raw, -2)
        let verdict = cd_tick_stays_local(L.raw, -1) != 0
        lua_settop(L.raw, base)
        return verdict
    }

    @Test("hooks that only read fields, compare, test or ignore t let it go", arguments: [
        "function(t) end",
        "function() n = (n or 0) + 1 end",
        "function(t) x = t.remaining end",
        "function(t) print(t.minutes, t.seconds, t.tenths) end",
        "function(t) if t.missed > 0 then late = true end end",
        "function(t) label = ('%02d:%02d'):format(t.minutes, t.seconds) end",
        "function(t, reason) last = reason .. ' ' .. t.remaining end",
        "function(t) if t then seen = true end end",
        "function(t) if t == nil then seen = true end end",
        "function(t) return t.remaining end",
        "function(t) local k = 'remaining'; return t[k], t[1] end",
        "function(t) for i = 1, t.seconds do total = (total or 0) + i end end",
        "function(t) local f = function(x) return x * 2 end; y = f(t.seconds) end",
        "function(t) local s = t.seconds; local g = function() return s end; z = g() end",
    ])
    func localVerdicts(_ source: String) {
        #expect(staysLocal(source), "\(source)")
    }

    @Test("any way of keeping or passing on t counts as keeping it", arguments: [
        "function(t) kept = t end",
        "function(t) kept = kept or {}; kept[#kept + 1] = t end",
        "function(t) local u = t; u = nil end",
        "function(t) print(t) end",
        "function(t) return t end",
        "function(t) return tostring(t) end",
        "function(t) f = function() return t end end",
        "function(t) local function a() local function b() return t end return b end; g = a() end",
        "function(t) co = coroutine.wrap(function() return t.remaining end) end",
        "function(...) end",
        "function(t, ...) end",
        "function(t) local m = {}; m[t] = 1 end",
        "function(t) local m = {}; return m[t] end",
        "function(t) x = t:nothing() end",
        "function(t) x = t or 1 end",
        "function(t) x = {t} end",
        "function(t) for k in pairs(t) do end end",
        "function(t) x = (t == other) end",
        "function(t) error(t) end",
        "function(t) t = {}; kept = t end",
        "print",
        "string.format",
        "42",
        "nil",
    ])
    func keptVerdicts(_ source: String) {
        #expect(!staysLocal(source), "\(source)")
    }

    /// Hook bodies made of these pieces, at random: the proof must never call a
    /// hook that keeps its tick local, and should see through the harmless ones.
    private static let readsOnly = [
        "local a = t.remaining", "x1 = t.seconds + 1", "if t.missed > 0 then x2 = true end",
        "x3 = ('%02d'):format(t.minutes)", "local k = t[1]", "if t then x4 = 1 end",
        "local f = function(v) return v end; x5 = f(2)", "for i = 1, t.tenths do x6 = i end",
        "x7 = t.id or 'none'",
    ]
    private static let passesOnButLetsGo = [
        "print(t)", "local u = t", "x8 = tostring(t)", "x9 = type(t)", "x10 = rawequal(t, t)",
    ]
    private static let keeps = [
        "kept[#kept + 1] = t", "g1 = t", "local u = t; g2 = u", "g3 = {t}", "g4 = function() return t end",
        "local tb = {}; tb[t] = true; g5 = tb", "g6 = coroutine.wrap(function() return t end)",
        "g7 = setmetatable({}, {__index = function() return t end})", "rawset(kept, #kept + 1, t)",
        "table.insert(kept, t)", "g8 = select(1, t)",
    ]

    @Test("random hook bodies: a hook judged to let t go never keeps it, by the collector's count")
    func proofIsSound() {
        // A new draw each run; a failure names the body, which is all it takes to replay it.
        var generator = SystemRandomNumberGenerator()
        let pieces = Self.readsOnly + Self.passesOnButLetsGo + Self.keeps
        for _ in 0..<300 {
            let count = Int.random(in: 1...4, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator)! }
            let source = "function(t) \(body.joined(separator: "; ")) end"
            let bed = LuaTestbed()
            bed.mustRun("""
                kept = {}
                probe = \(source)
                weak = setmetatable({}, {__mode = "k"})
                countdown.start{seconds = 5, on_tick = function(t) weak[t] = true; probe(t) end}:cancel()
                collectgarbage(); collectgarbage()
                survived = next(weak) ~= nil
                """)
            let local = staysLocal(probeIn: bed)
            let survived = bed.global("survived") == "true"
            let context = Comment(rawValue: source)
            if local { #expect(!survived, context) }
            if body.allSatisfy(Self.readsOnly.contains) { #expect(local, context) }
            if body.contains(where: Self.keeps.contains) { #expect(survived, context) }
        }
    }

    @Test("a thousand countdowns sharing one reading hook each see their own values")
    func verdictIsCached() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local function read(t) n = (n or 0) + t.seconds end
            for i = 1, 1000 do countdown.start{seconds = 3, on_tick = read} end
            """)
        bed.advance(to: 2)
        #expect(bed.global("n") == String(1000 * (3 + 2 + 1)))
        #expect(bed.top == 0)
    }

    @Test("a hook on the shared tick sees each tick's own values")
    func sharedTickValues() {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{id = "a", seconds = 3, on_tick = function(t)
              print(t.id, t.remaining, t.missed, t.progress)
            end, on_done = function(t, reason) print(t.id, reason, t.remaining) end}
            countdown.start{seconds = 2, on_tick = function(t) print(t.id, t.seconds) end}
            """)
        bed.advance(to: 4)
        #expect(bed.lines == [
            "a 3.0 0 0.0", "nil 2",
            "a 2.0 0 0.33333333333333", "nil 1",
            "a 1.0 0 0.66666666666667",
            "a finished 0.0",
        ])
    }

    @Test("a hook nested in another (an on_done run by a cancel) never shares the outer hook's tick")
    func nestedHooks() {
        let bed = LuaTestbed()
        bed.mustRun("""
            b = countdown.start{id = "b", seconds = 50, on_done = function(t, reason)
              print("b", reason, t.remaining)
            end}
            countdown.start{id = "a", seconds = 10, on_tick = function(t)
              local before = t.remaining
              if t.seconds == 8 then b:cancel() end
              print("a", before, t.remaining, t.id)
            end}
            """)
        bed.advance(to: 2)
        #expect(bed.lines == [
            "a 10.0 10.0 a",
            "a 9.0 9.0 a",
            "b cancelled 48.0",
            "a 8.0 8.0 a",
        ])
    }

    @Test("ticks kept by a hook stay snapshots, with their id, after the countdown has ended")
    func keptTicksSurvive() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            kept = {}
            countdown.start{id = "k", seconds = 2, on_tick = function(t) kept[#kept + 1] = t end}
            countdown.start{seconds = 2, on_tick = function(t) anon = anon or t end}
            """)
        try bed.runAll()
        #expect(bed.eval("kept[1].id .. ' ' .. kept[1].remaining .. ' ' .. kept[2].remaining") == "k 2.0 1.0")
        #expect(bed.eval("tostring(anon.id) .. ' ' .. anon.remaining") == "nil 2.0")
        #expect(bed.eval("rawequal(kept[1], kept[2])") == "false")
    }

    @Test("a hook that ends its own countdown still reads its tick, id included")
    func selfCancel() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{id = "self", seconds = 5, on_tick = function(t)
              if t.seconds == 4 then h:cancel() end
              print(t.id, t.remaining)
            end}
            """)
        bed.advance(to: 3)
        #expect(bed.lines == ["self 5.0", "self 4.0"])
        #expect(bed.top == 0)
    }
}
