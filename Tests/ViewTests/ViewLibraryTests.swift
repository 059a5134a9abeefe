import Testing
import TerminalView

@Suite("the Lua view library: elements, get and set, keys, and errors that name the problem")
struct ViewLibraryTests {
    @Test("view.get returns the current fields, on_press included")
    func get() {
        let h = ViewHarness()
        #expect(h.run("""
            local function go() end
            assert(view.label{ id = "status", text = "hi", style = "bold" } == "status")
            view.button{ id = "go", label = "Go", key = " ", on_press = go }
            view.progress{ id = "bar", value = 0.5 }
            local s = view.get("status")
            assert(s.id == "status" and s.kind == "label" and s.text == "hi" and s.style == "bold", "label")
            local b = view.get("go")
            assert(b.label == "Go" and b.key == "space" and b.enabled == true and b.on_press == go, "button")
            assert(view.get("bar").value == 0.5, "progress")
            view.set("status", { text = "changed" })
            assert(view.get("status").text == "changed", "set")
            """) == nil)
        #expect(h.host.vm.top == 0)
    }

    @Test("mistakes raise Lua errors that name them, with the script's line", arguments: [
        ("view.label{ id = 'a' }; view.label{ id = 'a' }", "test:1: view.label: duplicate id 'a': a label already has it"),
        ("view.set('nope', { text = 'x' })", "test:1: view.set: unknown id 'nope' (the view has no elements yet)"),
        ("view.get('nope')", "test:1: view.get: unknown id 'nope'"),
        ("view.button{ id = 'a', label = 'A', key = 'r' }; view.button{ id = 'b', label = 'B', key = 'r' }",
         "test:1: view.button: key 'r' is already bound to button 'a'"),
        ("view.label{ id = 'a', text = 5 }", "test:1: view.label: 'text' must be a string, got number"),
        ("view.label{ id = 'a', text = {} }", "test:1: view.label: 'text' must be a string, got table"),
        ("view.progress{ id = 'p', value = 'half' }", "test:1: view.progress: 'value' must be a number, got string"),
        ("view.button{ id = 'b', label = 'B', key = 'r', enabled = 1 }", "test:1: view.button: 'enabled' must be a boolean, got number"),
        ("view.button{ id = 'b', label = 'B', key = 'r', on_press = 'x' }", "test:1: view.button: 'on_press' must be a function, got string"),
        ("view.label{ id = 'a', on_press = print }", "test:1: view.label: a label has no field 'on_press'"),
        ("view.label{ text = 'no id' }", "test:1: view.label: 'id' must be a string, got nil"),
        ("view.label('a')", "test:1: view.label: expected a table of fields"),
        ("view.label{ id = 'a', txt = 'x' }", "test:1: view.label: a label has no field 'txt' (did you mean 'text'?)"),
        ("view.label{ id = 'a' }; view.set('a', { id = 'b' })", "test:1: view.set: 'id' cannot be changed (element 'a')"),
        ("view.label{ id = 'a' }; view.set('a', 'text')", "test:1: view.set: expected a table of fields as argument 2, got string"),
        ("view.title(5)", "test:1: view.title: expected a string, got number"),
        ("view.press('ctrl-x')", "test:1: view.press: key 'ctrl-x' is not a key"),
        ("view.label{ id = 'a', [1] = 'x' }", "test:1: view.label: field names must be strings, got a number key"),
    ])
    func errors(source: String, message: String) {
        let h = ViewHarness()
        let error = h.run(source)
        #expect(error?.hasPrefix(message) == true, "\(error ?? "no error")")
        #expect(error?.contains("stack traceback") == true)
    }

    @Test("a failed set changes nothing, on_press included")
    func atomicSet() {
        let h = ViewHarness()
        #expect(h.run("""
            local first = function() end
            view.button{ id = "go", label = "Go", key = "g", on_press = first }
            local ok = pcall(view.set, "go", { label = "Stop", enabled = "yes", on_press = function() end })
            assert(not ok)
            local b = view.get("go")
            assert(b.label == "Go" and b.enabled == true and b.on_press == first)
            """) == nil)
    }

    @Test("on_press runs on an enabled button's key with the button's id; a disabled one ignores it")
    func press() {
        let h = ViewHarness()
        #expect(h.run("""
            presses = {}
            view.button{ id = "go", label = "Go", key = "g", on_press = function(id) presses[#presses + 1] = id end }
            assert(view.press("g") == true)
            view.set("go", { enabled = false })
            assert(view.press("g") == false)
            assert(view.press("x") == false)
            view.set("go", { enabled = true })
            assert(h == nil and view.press("g"))
            assert(#presses == 2 and presses[1] == "go")
            """) == nil)
        #expect(h.press("g") == .pressed(id: "go"))
        #expect(h.host.vm.top == 0)
    }

    @Test("an error in on_press is reported with a traceback and counted; the button keeps working")
    func pressError() {
        let h = ViewHarness()
        #expect(h.run("""
            count = 0
            view.button{ id = "boom", label = "Boom", key = "b", on_press = function() count = count + 1; error("kaput") end }
            """) == nil)
        #expect(h.press("b") == .pressed(id: "boom"))
        #expect(h.press("b") == .pressed(id: "boom"))
        #expect(h.host.hookErrorCount == 2)
        #expect(h.errors.count == 2)
        #expect(h.errors[0].hasPrefix("cdscript: error in on_press of button \"boom\": test:2: kaput"))
        #expect(h.errors[0].contains("stack traceback"))
        #expect(h.host.vm.top == 0)
    }

    @Test("an error in a view.on_key handler is reported as on_press's is: counted, with control characters escaped")
    func keyHandlerError() {
        let h = ViewHarness()
        #expect(h.run("""
            view.on_key("x", function() error("\\27]52;c;aGk=\\7 gone", 0) end)
            """) == nil)
        #expect(h.press("x") == .handled)
        #expect(h.host.hookErrorCount == 1)
        #expect(h.errors.count == 1)
        #expect(h.errors[0].hasPrefix("cdscript: error in the view.on_key handler of key \"x\": "))
        #expect(!h.errors[0].contains("\u{1B}") && !h.errors[0].contains("\u{07}"), "\(h.errors[0])")
        #expect(h.host.vm.top == 0)
    }

    @Test("Space pauses every running countdown and resumes the same ones; a script-paused one stays paused")
    func spacePauses() {
        let h = ViewHarness()
        #expect(h.run("""
            view.label{ id = "status", text = "" }
            a = countdown.start{ id = "a", seconds = 10 }
            b = countdown.start{ id = "b", seconds = 10 }
            c = countdown.start{ id = "c", seconds = 10 }
            c:pause()
            """) == nil)
        #expect(h.press("space") == .togglePause)
        #expect(h.run("assert(a:state() == 'paused' and b:state() == 'paused' and c:state() == 'paused')") == nil)
        h.advance(5)
        #expect(h.press("space") == .togglePause)
        #expect(h.run("assert(a:state() == 'running' and b:state() == 'running' and c:state() == 'paused'); assert(a:remaining() == 10)") == nil)
    }

    @Test("a script that binds Space gets the key; q quits")
    func spaceBound() {
        let h = ViewHarness()
        #expect(h.run("""
            pressed = false
            view.button{ id = "pause", label = "Pause", key = "space", on_press = function() pressed = true end }
            countdown.start{ id = "a", seconds = 10 }
            """) == nil)
        #expect(h.press("space") == .pressed(id: "pause"))
        #expect(h.run("assert(pressed and countdown.get('a'):state() == 'running')") == nil)
        #expect(!h.view.isClosed)
        #expect(h.press("q") == .quit)
        #expect(h.view.isClosed)
    }

    @Test("view.close closes the view; view.screen returns what the terminal shows")
    func closeAndScreen() {
        let h = ViewHarness(columns: 10, rows: 1)
        #expect(h.run("""
            view.label{ id = "s", text = "hello" }
            assert(view.screen() == "  hello", view.screen())
            view.close()
            """) == nil)
        #expect(h.view.isClosed)
    }

    @Test("ticks drive the view: a label set in on_tick shows the true remaining time after a stall")
    func stall() {
        let h = ViewHarness(columns: 12, rows: 1)
        #expect(h.run("""
            view.label{ id = "s", text = "" }
            countdown.start{ seconds = 10, on_tick = function(t) view.set("s", { text = ("%gs"):format(t.remaining) }) end }
            """) == nil)
        #expect(h.screen == "    10s")
        h.scheduler.stall(h.clock, for: 6_500_000_000)
        #expect(h.screen == "    3.5s")
    }
}
