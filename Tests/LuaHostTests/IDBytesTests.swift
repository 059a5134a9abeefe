import CountdownCore
import Foundation
import LuaHost
import Testing

/// Ids are Lua strings: any bytes. Two ids are one countdown only when their
/// bytes are equal.
@Suite("Countdown ids are bytes, as Lua strings are")
struct IDBytesTests {
    @Test("ids that are not UTF-8 are two countdowns, each ending with its own on_done", arguments: [
        (#""\255""#, #""\254""#),
        (#""k\0one""#, #""k\0two""#),
        (#""\xC3""#, #""\xC3\xA9""#),
        (#""caf\u{E9}""#, #""cafe\u{301}""#),
    ])
    func distinctBytes(_ ids: (String, String)) throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            a = countdown.start{ id = \(ids.0), seconds = 2, on_done = function(t, r) print("a", r, t.id == \(ids.0)) end }
            b = countdown.start{ id = \(ids.1), seconds = 3, on_done = function(t, r) print("b", r, t.id == \(ids.1)) end }
            """)
        #expect(bed.eval("a:state() .. ' ' .. b:state()") == "running running")
        #expect(bed.eval("countdown.get(\(ids.0)) == a and countdown.get(\(ids.1)) == b") == "true")
        #expect(bed.eval("a.id == \(ids.0) and b.id == \(ids.1)") == "true")
        #expect(bed.eval("#countdown.list()") == "2")
        try bed.runAll()
        #expect(bed.lines == ["a finished true", "b finished true"])
        #expect(bed.errors.isEmpty)
    }

    @Test("the same bytes still replace, whichever way the options are written")
    func sameBytesReplace() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            old = countdown.start{ id = "\\255x", seconds = 5, on_done = function() print("old done") end }
            -- on_error takes the long way through the options; the id is the same bytes.
            new = countdown.start{ id = "\\255" .. "x", seconds = 1, on_error = "continue", on_done = function() print("new done") end }
            """)
        #expect(bed.eval("old:state() .. ' ' .. new:state()") == "cancelled running")
        #expect(bed.eval("countdown.get('\\255x') == new") == "true")
        try bed.runAll()
        #expect(bed.lines == ["new done"])
    }

    @Test("two ids with the same hash are two countdowns: each is found by its own bytes, and one's end leaves the other")
    func sameHashDistinctIDs() throws {
        // "id522789" and "id739192" have the same 32-bit FNV-1a hash, which is all
        // the id table keeps of an id beside its handle: the handle's own id
        // tells them apart.
        let bed = LuaTestbed()
        bed.mustRun(#"a = countdown.start{ id = "id522789", seconds = 1, on_done = function(t, r) print("a", r, t.id) end }"#)
        #expect(bed.eval("countdown.get('id739192') == nil") == "true")
        bed.mustRun(#"b = countdown.start{ id = "id739192", seconds = 3, on_done = function(t, r) print("b", r, t.id) end }"#)
        #expect(bed.eval("countdown.get('id522789') == a and countdown.get('id739192') == b") == "true")
        #expect(bed.eval("#countdown.list()") == "2")
        bed.mustRun("c = countdown.start{ id = 'id739192', seconds = 2, on_done = function(t, r) print('c', r, t.id) end }")
        #expect(bed.eval("a:state() .. ' ' .. b:state() .. ' ' .. c:state()") == "running cancelled running")
        #expect(bed.eval("countdown.get('id522789') == a and countdown.get('id739192') == c") == "true")
        try bed.runAll()
        #expect(bed.lines == ["a finished id522789", "c finished id739192"])
        #expect(bed.eval("countdown.get('id522789') == nil and countdown.get('id739192') == nil") == "true")
        #expect(bed.errors.isEmpty)
    }

    @Test("an ended countdown frees its id: get finds nothing, from its own on_done too")
    func endFreesID() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ id = "\\0", seconds = 1, on_done = function() print(countdown.get("\\0")) end }
            """)
        try bed.runAll()
        #expect(bed.lines == ["nil"])
        #expect(bed.eval("countdown.get('\\0')") == "nil")
        // append restarts it under the same id.
        bed.mustRun("h:append(2)")
        #expect(bed.eval("countdown.get('\\0') == h") == "true")
    }

    @Test("a persistent countdown's id must be text without NUL bytes; nothing is stored or merged otherwise")
    func persistentIDsAreText() {
        let store = InMemoryCountdownStore()
        let bed = LuaTestbed()
        bed.host.store.persistence = store
        for id in [#""k\0one""#, #""\255""#] {
            let failure = bed.run("countdown.start{ id = \(id), seconds = 5, persist = true }")
            #expect(failure?.message.contains("a persistent countdown's 'id' must be UTF-8 text without NUL bytes") == true, "\(failure?.message ?? "no error")")
            let fetch = bed.run("countdown.fetch(\(id))")
            #expect(fetch?.message.contains("countdown.fetch: stored ids are UTF-8 text without NUL bytes") == true, "\(fetch?.message ?? "no error")")
        }
        #expect(bed.run(#"countdown.start{ id = "k\0two", seconds = 5, persist = true }"#)?.message.contains(#"got "k\0two""#) == true)
        #expect(store.countdowns.isEmpty)
        bed.mustRun(#"countdown.start{ id = "caf\u{E9}", seconds = 5, persist = true }"#)
        #expect(Array(store.countdowns.keys) == ["caf\u{E9}"])
    }

    @Test("replacing a persistent countdown by a plain one under the same id stops storing its changes")
    func persistenceFollowsTheCountdown() {
        let store = InMemoryCountdownStore()
        let bed = LuaTestbed()
        bed.host.store.persistence = store
        bed.mustRun(#"countdown.start{ id = "p", seconds = 10, persist = true }"#)
        let commits = store.commits
        bed.mustRun(#"h = countdown.start{ id = "p", seconds = 20 }; h:append(5); h:pause()"#)
        #expect(store.commits == commits)
        bed.mustRun(#"h2 = countdown.start{ id = "p", seconds = 30, persist = true }; h2:pause()"#)
        #expect(store.countdowns["p"]?.state == .paused)
        #expect(bed.eval("h:state()") == "cancelled")
    }
}

@Suite("The handle's __index, in C")
struct HandleIndexTests {
    @Test("h.id and methods as before; a non-handle given the handle metatable gets an error, never a crash")
    func indexChecksSelf() {
        let bed = LuaTestbed()
        bed.mustRun("""
            h = countdown.start{ id = "\\255", seconds = 5 }
            index = debug.getmetatable(h).__index
            """)
        #expect(bed.eval("h.id == '\\255' and index(h, 'cancel') == h.cancel and h.nothing == nil") == "true")
        let fake = bed.run("local t = debug.setmetatable({}, debug.getmetatable(h)); return t.id")
        #expect(fake?.message.contains("id: expected a countdown handle, got table") == true, "\(fake?.message ?? "no error")")
        let number = bed.run("return index(5, 'id')")
        #expect(number?.message.contains("id: expected a countdown handle, got number") == true, "\(number?.message ?? "no error")")
        #expect(bed.eval("h:cancel()") == "true")
        #expect(bed.top == 0)
    }
}

@Suite("countdown.start's quick read of its options")
struct StartQuickReadTests {
    @Test("a hook that starts a countdown keeps its own tick's values (the shared tick is not lent twice)")
    func nestedStartKeepsOuterTick() {
        let bed = LuaTestbed()
        bed.mustRun("""
            local function inner(t) local r = t.remaining end
            countdown.start{ seconds = 3, every = 1, on_tick = function(t)
              local before = t.remaining
              countdown.start{ seconds = 100, on_tick = inner }
              print(before == t.remaining, t.remaining)
            end }
            """)
        bed.advance(to: 1)
        #expect(bed.lines == ["true 3.0", "true 2.0"])
    }

    @Test("options the quick read leaves to the long way give the same messages", arguments: [
        ("{ seconds = 1, evry = 0.5 }", "unknown option 'evry' (did you mean 'every'?)"),
        ("{ seconds = -1 }", "'seconds' must be a number of seconds > 0, got -1"),
        ("{ seconds = 0/0 }", "'seconds' must be a number of seconds > 0"),
        ("{ seconds = 1, every = 0.01 }", "'every' must be at least 0.1 seconds, got 0.01"),
        ("{ seconds = 1, id = '' }", "'id' must not be empty"),
        ("{ seconds = 1, id = 5 }", "'id' must be a string, got number"),
        ("{ seconds = 1, on_tick = 5 }", "'on_tick' must be a function, got number"),
        ("{ seconds = 1, [1] = 5 }", "option names must be strings, got a number key"),
        ("{ every = 1 }", "give 'seconds' (a duration) or 'at' (a deadline)"),
        ("{ seconds = '5x' }", "'seconds' = \"5x\": \"5x\" is not a duration"),
        ("{ seconds = true }", "'seconds' must be"),
    ])
    func longWayMessages(_ options: String, _ message: String) {
        let bed = LuaTestbed()
        let failure = bed.run("countdown.start\(options)")
        #expect(failure?.message.contains(message) == true, "\(failure?.message ?? "no error")")
        #expect(bed.top == 0)
    }

    @Test("persist = false, every and both hooks take the quick way and behave as before")
    func quickWay() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            countdown.start{ id = "q", seconds = 1, every = 0.5, persist = false,
              on_tick = function(t) print(t.id, t.remaining) end,
              on_done = function(t, r) print(t.id, r) end }
            """)
        try bed.runAll()
        #expect(bed.lines == ["q 1.0", "q 0.5", "q finished"])
        #expect(bed.top == 0)
    }
}
