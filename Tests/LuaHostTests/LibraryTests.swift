import Testing

@Suite("countdown.get, countdown.list, countdown.cancel_all")
struct LibraryTests {
    @Test("countdown.get(id) is the handle start returned; nil for an unknown or ended id")
    func get() throws {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'a', seconds = 1}")
        #expect(bed.eval("countdown.get('a') == h") == "true")
        #expect(bed.eval("countdown.get('b')") == "nil")
        try bed.runAll()
        #expect(bed.eval("countdown.get('a')") == "nil")
    }

    @Test("countdown.get of a cancelled countdown is nil")
    func getCancelled() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'a', seconds = 1}; h:cancel()")
        #expect(bed.eval("countdown.get('a')") == "nil")
    }

    @Test("countdown.get finds a paused countdown")
    func getPaused() {
        let bed = LuaTestbed()
        bed.mustRun("h = countdown.start{id = 'a', seconds = 1}; h:pause()")
        #expect(bed.eval("countdown.get('a') == h") == "true")
    }

    @Test("countdown.get needs a string")
    func getNeedsString() {
        let bed = LuaTestbed()
        bed.mustRun("ok, err = pcall(countdown.get, 5)")
        #expect(bed.global("ok") == "false")
        #expect(bed.global("err")?.contains("countdown.get: 'id' must be a string, got number") == true)
    }

    @Test("countdown.list() holds the active handles in start order, paused ones included")
    func list() throws {
        let bed = LuaTestbed()
        bed.mustRun("""
            a = countdown.start{id = "a", seconds = 3}
            b = countdown.start{seconds = 1}
            c = countdown.start{id = "c", seconds = 5}
            c:pause()
            local l = countdown.list()
            print(#l, l[1] == a, l[2] == b, l[3] == c)
            """)
        #expect(bed.takeLines() == ["3 true true true"])
        bed.advance(to: 1)
        bed.mustRun("local l = countdown.list(); print(#l, l[1] == a, l[2] == c)")
        #expect(bed.takeLines() == ["2 true true"])
    }

    @Test("countdown.list() is empty with no countdowns")
    func listEmpty() {
        let bed = LuaTestbed()
        #expect(bed.eval("#countdown.list()") == "0")
    }

    @Test("countdown.list() returns a fresh table each time")
    func listFresh() {
        let bed = LuaTestbed()
        bed.mustRun("countdown.start{seconds = 3}")
        #expect(bed.eval("countdown.list() ~= countdown.list()") == "true")
    }

    @Test("countdown.cancel_all() cancels every countdown in start order, each on_done once")
    func cancelAll() {
        let bed = LuaTestbed()
        bed.mustRun("""
            for _, id in ipairs{"a", "b", "c"} do
              countdown.start{id = id, seconds = 5, on_done = function(t, r) print(t.id, r) end}
            end
            countdown.get("b"):pause()
            countdown.cancel_all()
            print(#countdown.list())
            countdown.cancel_all()
            """)
        bed.advance(to: 10)
        #expect(bed.lines == ["a cancelled", "b cancelled", "c cancelled", "0"])
        #expect(bed.scheduler.activeCount == 0)
    }

    @Test("countdown.cancel_all() returns nothing")
    func cancelAllReturnsNothing() {
        let bed = LuaTestbed()
        #expect(bed.eval("select('#', countdown.cancel_all())") == "0")
    }
}
